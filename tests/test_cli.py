"""The ``kitten`` command, in-process through ``kitten.cli.main`` and once as a subprocess."""
from __future__ import annotations

import contextlib
import gzip
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lxml import etree

import kitten
from kitten.cli import main

ROOT = Path(__file__).resolve().parent.parent

PAGES = {
    "a/b/page.html": "<html><head><title>Deep page</title></head><body><p>Deep page body text.</p>"
                     "<p>END-a-b-page</p></body></html>",
    "c.htm": "<html><body><h1>Cee</h1><p>caf&eacute; text of c</p><p>END-c</p></body></html>",
    "noext": "<p>A page without a suffix.</p><p>END-noext</p>",
}
GZ_PAGE = "<html><body><p>Compressed page text.</p><p>END-page2</p></body></html>"
SITEMAP = ('<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
           "<url><loc>https://example.com/</loc></url></urlset>")
EXPECTED = {  # input -> output (without suffix), end marker
    "a/b/page.html": ("a/b/page", "END-a-b-page"),
    "c.htm": ("c", "END-c"),
    "page2.html.gz": ("page2", "END-page2"),
    "noext": ("noext", "END-noext"),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    for rel, html in PAGES.items():
        p = src / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(html, encoding="utf-8")
    (src / "page2.html.gz").write_bytes(gzip.compress(GZ_PAGE.encode(), mtime=0))
    (src / "sitemap.xml").write_text(SITEMAP, encoding="utf-8")  # .xml: not a page suffix, not discovered
    (src / "notes.txt").write_text("not a page", encoding="utf-8")
    (src / ".hidden").mkdir()
    (src / ".hidden" / "skip.html").write_text("<p>hidden folder</p>", encoding="utf-8")
    return src


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def read_log(out: Path) -> list[dict]:
    lines = (out / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines]


def files(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def assert_no_temp_files(out: Path) -> None:
    left = [p for p in out.rglob("*") if p.name.startswith(".") and p.name.endswith(".tmp")]
    assert not left, left


def test_normalize_tree(tree: Path, tmp_path: Path, capsys, check_xhtml) -> None:
    out = tmp_path / "out"
    code, _, err = run(["normalize", str(tree), "-o", str(out), "-q"], capsys)
    assert code == 0, err
    for rel, (stem, marker) in EXPECTED.items():
        path = out / (stem + ".xhtml")
        assert path.is_file(), (rel, sorted(files(out)))
        xhtml = path.read_text(encoding="utf-8")
        check_xhtml(xhtml)
        assert marker in xhtml  # complete, not truncated
    assert "café text of c" in (out / "c.xhtml").read_text(encoding="utf-8")
    names = set(files(out))
    assert names == {"a/b/page.xhtml", "c.xhtml", "page2.xhtml", "noext.xhtml", "kitten-log.jsonl",
                     "kitten-run.json"}, names
    log = read_log(out)
    assert len(log) == 4
    assert {rec["page"] for rec in log} == set(EXPECTED)
    for rec in log:
        assert rec["status"] == "done" and rec["output"] and isinstance(rec["events"], list), rec
        assert Path(rec["output"]).is_file()
    assert_no_temp_files(out)


def test_extract_tree(tree: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    code, _, err = run(["extract", str(tree), "-o", str(out), "-q"], capsys)
    assert code == 0, err
    for rel, (stem, marker) in EXPECTED.items():
        text = (out / (stem + ".txt")).read_text(encoding="utf-8")
        assert text.rstrip().endswith(marker + "."), (rel, text)  # one sentence per line, punctuated
    assert (out / "a/b/page.txt").read_text(encoding="utf-8") == "Deep page body text.\nEND-a-b-page.\n"
    assert len(read_log(out)) == 4
    assert_no_temp_files(out)


def test_summary_on_stderr_unless_quiet(tree: Path, tmp_path: Path, capsys) -> None:
    # The summary goes to the sys.stderr of the moment (an in-process caller redirecting it
    # must get it), not to the stream that was sys.stderr when kitten.batch was imported.
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = main(["extract", str(tree), "-o", str(tmp_path / "out")])
    assert code == 0
    assert "kitten-log.jsonl" in err.getvalue()
    assert "4 pages" in err.getvalue(), err.getvalue()
    assert capsys.readouterr().out == ""
    code = main(["extract", str(tree), "-o", str(tmp_path / "out2"), "-q"])
    assert capsys.readouterr().err == ""


def test_files_given_one_by_one(tree: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    code, _, _ = run(["extract", str(tree / "c.htm"), str(tree / "a/b/page.html"), "-o", str(out), "-q"], capsys)
    assert code == 0
    assert (out / "c.txt").is_file() and (out / "page.txt").is_file()


def test_output_name_collisions_do_not_overwrite(tmp_path: Path, capsys) -> None:
    # page, page.htm, page.html and page.html.gz all mirror to OUT/page.txt: no page's
    # output may be silently replaced by another's.
    src = tmp_path / "in"
    src.mkdir()
    (src / "page").write_text("<p>from noext</p>", encoding="utf-8")
    (src / "page.htm").write_text("<p>from htm</p>", encoding="utf-8")
    (src / "page.html").write_text("<p>from html</p>", encoding="utf-8")
    (src / "page.html.gz").write_bytes(gzip.compress(b"<p>from gz</p>", mtime=0))
    out = tmp_path / "out"
    code, _, _ = run(["extract", str(src), "-o", str(out), "-q"], capsys)
    log = read_log(out)
    outputs = [rec["output"] for rec in log if rec["output"]]
    assert len(outputs) == len(set(outputs)), outputs
    texts = "".join(p.read_text(encoding="utf-8") for p in out.rglob("*.txt"))
    for word in ("noext", "htm", "html", "gz"):
        assert f"from {word}.\n" in texts, texts


def test_excluded_page_is_logged_and_not_an_error(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    src.mkdir()
    (src / "sitemap.html").write_text(SITEMAP, encoding="utf-8")  # a sitemap under a page name
    (src / "empty.html").write_bytes(b"")
    (src / "ok.html").write_text("<p>fine</p>", encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = run(["normalize", str(src), "-o", str(out), "-q"], capsys)
    assert code == 0
    log = {rec["page"]: rec for rec in read_log(out)}
    assert log["sitemap.html"]["status"] == "excluded" and log["empty.html"]["status"] == "excluded"
    assert any(e["kind"] == "excluded" for e in log["sitemap.html"]["events"])
    assert set(files(out)) == {"ok.xhtml", "kitten-log.jsonl", "kitten-run.json"}


def test_fallback_writes_txt(tmp_path: Path, capsys, monkeypatch) -> None:
    import kitten.pipeline

    real = kitten.pipeline.to_xhtml

    def broken(text, *args, **kwargs):
        if "BREAKME" in text:
            raise RuntimeError("simulated normalizer bug")
        return real(text, *args, **kwargs)

    monkeypatch.setattr(kitten.pipeline, "to_xhtml", broken)
    src = tmp_path / "in"
    src.mkdir()
    (src / "bad.html").write_text("<p>BREAKME but keep these words</p>", encoding="utf-8")
    (src / "good.html").write_text("<p>good page</p>", encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = run(["normalize", str(src), "-o", str(out), "-q"], capsys)
    assert code == 0  # a fallback is output, not a failure
    assert not (out / "bad.xhtml").exists()
    assert "keep these words" in (out / "bad.txt").read_text(encoding="utf-8")
    assert (out / "good.xhtml").is_file()
    log = {rec["page"]: rec for rec in read_log(out)}
    assert log["bad.html"]["status"] == "fallback"
    assert any(e["kind"] == "fallback" and "simulated normalizer bug" in e["message"]
               for e in log["bad.html"]["events"])


def test_page_without_output_is_logged_and_the_batch_goes_on(tmp_path: Path, capsys) -> None:
    """Exit 0: every input has an outcome (the failed page's is in the log)."""
    src = tmp_path / "in"
    src.mkdir()
    (src / "broken.html.gz").write_bytes(gzip.compress(b"<p>truncated gzip page</p>" * 50)[:40])
    (src / "ok.html").write_text("<p>fine</p>", encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = run(["extract", str(src), "-o", str(out), "-q"], capsys)
    assert code == 0
    assert (out / "ok.txt").read_text(encoding="utf-8") == "fine.\n"  # the batch went on
    log = {rec["page"]: rec for rec in read_log(out)}
    assert log["broken.html.gz"]["status"] == "failed" and log["broken.html.gz"]["output"] is None


def test_dump_dir(tree: Path, tmp_path: Path, capsys) -> None:
    out, dump = tmp_path / "out", tmp_path / "dump"
    code, _, _ = run(["extract", str(tree), "-o", str(out), "--dump-dir", str(dump), "-q"], capsys)
    assert code == 0
    for stem in ("a/b/page", "c", "page2", "noext"):
        for suffix in (".raw.html", ".decoded.html", ".xhtml", ".txt", ".log.json"):
            assert (dump / (stem + suffix)).is_file(), (stem, suffix, sorted(files(dump)))
    assert (dump / "page2.raw.html").read_bytes() == GZ_PAGE.encode()  # raw = decompressed bytes
    assert "café" in (dump / "c.decoded.html").read_text(encoding="utf-8") or \
        "caf&eacute;" in (dump / "c.decoded.html").read_text(encoding="utf-8")
    assert (dump / "c.txt").read_text(encoding="utf-8") == (out / "c.txt").read_text(encoding="utf-8")
    meta = json.loads((dump / "c.log.json").read_text(encoding="utf-8"))
    assert meta["status"] == "done" and isinstance(meta["events"], list)
    assert_no_temp_files(dump)


def test_jobs_2_same_as_jobs_1(tree: Path, tmp_path: Path, capsys) -> None:
    results = {}
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        code, _, _ = run(["normalize", str(tree), "-o", str(out), "--jobs", str(jobs), "-q"], capsys)
        assert code == 0
        log = sorted(read_log(out), key=lambda r: r["page"])
        for rec in log:
            rec["output"] = str(Path(rec["output"]).relative_to(out))
        results[jobs] = (files(out), log)
        assert_no_temp_files(out)
    (files1, log1), (files2, log2) = results[1], results[2]
    files1.pop("kitten-log.jsonl")
    files2.pop("kitten-log.jsonl")
    assert files1 == files2
    assert log1 == log2


def test_unknown_config_key_exits_2(tree: Path, tmp_path: Path, capsys) -> None:
    cfg = tmp_path / "kitten.toml"
    cfg.write_text("[normalize]\nmax_dept = 100\n", encoding="utf-8")
    code, _, err = run(["extract", str(tree), "-o", str(tmp_path / "out"), "--config", str(cfg)], capsys)
    assert code == 2
    assert "max_dept" in err and "normalize" in err
    assert not (tmp_path / "out").exists()  # nothing done


def test_valid_config_is_used(tmp_path: Path, capsys) -> None:
    src = tmp_path / "sitemap.html"
    src.write_text(SITEMAP, encoding="utf-8")
    cfg = tmp_path / "kitten.toml"
    cfg.write_text("[triage]\nexclude_sitemaps = false\n", encoding="utf-8")
    code, out, _ = run(["extract", str(src), "--config", str(cfg)], capsys)
    assert code == 0 and "https://example.com/" in out


@pytest.mark.parametrize("toml, word", [
    ("[nrmalize]\nmax_depth = 100\n", "nrmalize"),
    ("[normalize]\nmax_depth = \"deep\"\n", "max_depth"),
    ("[triage]\nexclude_sitemaps = 1\n", "exclude_sitemaps"),
    ("this is not toml = = =\n", "kitten.toml"),
    ("[normalize]\nmax_depth = 0\n", "max_depth"),
    ("[normalize]\nmax_depth = 100000\n", "max_depth"),
    ("[decode]\ndefault_encoding = \"klingon\"\n", "klingon"),
], ids=["unknown-section", "wrong-type", "int-for-bool", "not-toml", "depth-0", "depth-above-libxml2-limit",
        "unknown-encoding"])
def test_bad_config_exits_2(tree: Path, tmp_path: Path, capsys, toml: str, word: str) -> None:
    # depth 0 writes a document without a root element; depth > 255 writes XHTML that libxml2
    # refuses; an unknown default encoding silently does nothing: all are configuration errors.
    cfg = tmp_path / "kitten.toml"
    cfg.write_text(toml, encoding="utf-8")
    code, _, err = run(["extract", str(tree), "-o", str(tmp_path / "out"), "--config", str(cfg)], capsys)
    assert code == 2, err
    assert err.startswith("kitten:") and word in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_missing_path_exits_2(tmp_path: Path, capsys) -> None:
    code, _, err = run(["extract", str(tmp_path / "nope.html"), "-o", str(tmp_path / "out")], capsys)
    assert code == 2
    assert "nope.html" in err


def test_usage_errors_exit_2(tree: Path, capsys) -> None:
    for argv in ([], ["frobnicate", str(tree)], ["extract"], ["extract", str(tree)]):  # last: many pages, no -o
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
        capsys.readouterr()
        assert code == 2, argv


def test_version(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    out, _ = capsys.readouterr()
    assert out.strip() == f"kitten {kitten.__version__}"


def test_single_page_without_output_prints_text(tree: Path, capsys) -> None:
    code, out, err = run(["extract", str(tree / "a/b/page.html")], capsys)
    assert code == 0
    assert out == "Deep page body text.\nEND-a-b-page.\n"


def test_single_page_normalize_prints_xhtml(tree: Path, capsys, check_xhtml) -> None:
    code, out, _ = run(["normalize", str(tree / "page2.html.gz")], capsys)
    assert code == 0
    check_xhtml(out)
    assert "END-page2" in out


def test_single_excluded_page_prints_reason(tmp_path: Path, capsys) -> None:
    page = tmp_path / "empty.html"
    page.write_bytes(b"   ")
    code, out, err = run(["extract", str(page)], capsys)
    assert code == 0 and out == ""
    assert "excluded" in err


def test_subprocess_python_m(tree: Path, tmp_path: Path, capsys) -> None:
    out_sub, out_in = tmp_path / "sub", tmp_path / "inproc"
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "kitten.cli", "normalize", str(tree), "-o", str(out_sub)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "4 pages" in proc.stderr
    code, _, _ = run(["normalize", str(tree), "-o", str(out_in), "-q"], capsys)
    assert code == 0
    sub, inproc = files(out_sub), files(out_in)
    for name in ("kitten-log.jsonl", "kitten-run.json"):
        assert sub.pop(name) and inproc.pop(name)
    assert sub == inproc
    for name, data in sub.items():
        etree.fromstring(data, etree.XMLParser(recover=False))
    version = subprocess.run([sys.executable, "-m", "kitten.cli", "--version"], capture_output=True, text=True,
                             env=env, timeout=120)
    assert version.returncode == 0 and version.stdout.strip() == f"kitten {kitten.__version__}"
    assert_no_temp_files(out_sub)


def test_removed_link_items_name_their_input_file(tmp_path: Path, capsys) -> None:
    menu = ("<ul>" + "".join(f"<li><a href='/{w}'>{w}</a></li>" for w in ("Home", "News", "Contact"))
            + "</ul><p>Some text of the page.</p>")
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "20.html").write_text(menu, encoding="utf-8")
    code = main(["extract", str(tmp_path / "a"), str(tmp_path / "b"), "-o", str(tmp_path / "out")])
    assert code == 0
    lines = (tmp_path / "out" / "kitten-removed-links.tsv").read_text(encoding="utf-8").splitlines()
    pages = {line.split("\t")[0] for line in lines}
    assert pages == {str(tmp_path / "a" / "20.html"), str(tmp_path / "b" / "20.html")}
    assert {line.split("\t")[2] for line in lines} == {"Home", "News", "Contact"}
    assert "link-list items removed: 6" in capsys.readouterr().err


def test_outputs_are_readable_like_ordinary_files(tmp_path: Path) -> None:
    from kitten.io.files import atomic_write

    atomic_write(tmp_path / "a.txt", "x")
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "a.txt").stat().st_mode & 0o777 == 0o666 & ~mask


@pytest.mark.parametrize("argv, message", [
    (["extract", "PAGE", "--keep-threshold", "0.3"], "--keep-threshold goes with the gate"),
    (["report", "PAGE", "-o", "OUT", "--keep-threshold", "0.3"], "--keep-threshold goes with the gate"),
    (["extract", "PAGE", "--boilerplate", "none", "--keep-threshold", "0.3"], "--keep-threshold goes with the gate"),
    (["extract", "PAGE", "-o", "OUT", "--jsonl-fields", "tables"], "--fields goes with --format jsonl or parquet"),
    (["extract", "PAGE", "-o", "OUT", "--shard-size", "10"], "--shard-size goes with --format jsonl"),
    (["extract", "PAGE", "--scheduler", "tcp://h:8786"], "--scheduler goes with --engine dask"),
])
def test_an_option_that_would_do_nothing_is_a_usage_error(argv, message, tmp_path: Path, capsys) -> None:
    """Never silence: an option this run would not use stops it with exit code 2 and one line."""
    page = tmp_path / "p.html"
    page.write_text("<p>Some text here.</p>", encoding="utf-8")
    argv = [str(page) if a == "PAGE" else str(tmp_path / "out") if a == "OUT" else a for a in argv]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize("argv, message", [
    (["extract", "PAGE", "--format", "jsonl", "-o", "OUT.jsonl", "--log-level", "events"], "--log-level events"),
    (["extract", "PAGE", "--log-level", "events"], "--log-level events"),
    (["extract", "PAGE", "--overwrite"], "--overwrite"),
])
def test_an_option_this_run_ignores_gets_a_warning(argv, message, tmp_path: Path, capsys) -> None:
    page = tmp_path / "p.html"
    page.write_text("<p>Some text here.</p>", encoding="utf-8")
    argv = [str(page) if a == "PAGE" else str(tmp_path / "out.jsonl") if a == "OUT.jsonl" else a for a in argv]
    code, _, err = run(argv + ["-q"], capsys)
    assert code == 0
    warnings = [line for line in err.splitlines() if line.startswith("kitten: warning:")]
    assert len(warnings) == 1 and message in warnings[0] and "(ignored)" in warnings[0], err


def test_the_gates_threshold_with_the_gate_is_no_error(tmp_path: Path, capsys) -> None:
    pytest.importorskip("pycrfsuite")
    page = tmp_path / "p.html"
    page.write_text("<p>Some text here, a sentence of the article.</p>", encoding="utf-8")
    code, out, err = run(["extract", str(page), "--boilerplate", "crf", "--keep-threshold", "0.3", "-q"], capsys)
    assert code == 0 and "warning" not in err and "Some text here" in out
