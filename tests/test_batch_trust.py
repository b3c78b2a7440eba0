"""A batch a corpus builder can trust (issue 38, parts 1, 2 and 6): resume only under
the same settings, nothing lost on interrupt, odd inputs and outputs handled as Unix
tools do. ``benchmarks/replay_failures.py`` replays the same cases at a larger scale."""
from __future__ import annotations

import copy
import dataclasses
import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kitten.cli import main
from kitten.config import Config
from kitten.io.files import walk
from kitten.io.fingerprint import fingerprint
from kitten.io.jsonl import complete_lines

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def pages(folder: Path, n: int, rows: int = 0) -> list[str]:
    """``n`` pages (with a data table of ``rows`` rows: slower to convert)."""
    folder.mkdir(parents=True, exist_ok=True)
    table = "<table>" + "".join(f"<tr>{''.join(f'<td>r{r}c{c}</td>' for c in range(30))}</tr>"
                                for r in range(rows)) + "</table>" if rows else ""
    for i in range(n):
        (folder / f"p{i:03d}.html").write_text(f"<h1>Title {i}</h1><p>Body of page {i}, with a sentence.</p>{table}",
                                                encoding="utf-8")
    return [f"p{i:03d}.html" for i in range(n)]


def read_jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


# ------------------------------------------------------------------ 1. resume knows its settings
def test_every_config_field_changes_the_fingerprint() -> None:
    base = fingerprint("text", "text", Config())
    assert base == fingerprint("text", "text", Config())
    config = Config()
    for section in dataclasses.fields(config):
        part = getattr(config, section.name)
        for f in dataclasses.fields(part):
            value = getattr(part, f.name)
            other = (not value if isinstance(value, bool) else value + 1 if isinstance(value, (int, float))
                     else value + "x" if isinstance(value, str) else tuple(value) + ("x",))
            changed = copy.copy(part)
            object.__setattr__(changed, f.name, other)  # past validation: any value must count
            fp = fingerprint("text", "text", dataclasses.replace(config, **{section.name: changed}))
            assert fp != base, f"{section.name}.{f.name}"
            assert f"{section.name}.{f.name}" in fp.differences(base)[0]


@pytest.mark.parametrize("output, base, other, named", [
    ("out", [], ["--format", "json"], "format text -> json"),
    ("out", [], ["--config", "CONFIG"], "segment.split_sentences false -> true"),
    ("out.jsonl", ["--format", "jsonl"], ["--jsonl-fields", "tables"], "fields [] -> [tables]"),
    ("shards", ["--format", "jsonl", "--shard-size", "2"], ["--config", "CONFIG"], "segment.split_sentences"),
])
def test_rerun_with_other_settings_stops_unless_overwrite(tmp_path: Path, capsys, output, base, other, named) -> None:
    names = pages(tmp_path / "in", 3)
    config = tmp_path / "c.toml"
    config.write_text("[segment]\nsplit_sentences = false\n", encoding="utf-8")
    other = [str(config) if x == "CONFIG" else x for x in other]
    base = ["extract", str(tmp_path / "in"), "-o", str(tmp_path / output), *base]
    assert run(base + ["-q"], capsys)[0] == 0
    code, _, err = run(base + other, capsys)
    assert code == 2 and "written with other settings" in err and len(err.strip().splitlines()) == 1, err
    assert named in err.replace("true -> false", "false -> true"), err
    code, _, err = run(base, capsys)  # the same settings: resumed
    assert code == 0 and f"{len(names)} done by an earlier run" in err
    code, _, err = run(base + other + ["--overwrite"], capsys)
    assert code == 0 and f"{len(names)} pages" in err and "earlier run" not in err


def test_outputs_of_unknown_settings_are_not_resumed(tmp_path: Path, capsys) -> None:
    pages(tmp_path / "in", 2)
    out = tmp_path / "out"
    assert run(["extract", str(tmp_path / "in"), "-o", str(out), "-q"], capsys)[0] == 0
    (out / "kitten-run.json").unlink()  # as an earlier Kitten left it
    code, _, err = run(["extract", str(tmp_path / "in"), "-o", str(out)], capsys)
    assert code == 2 and "settings are unknown" in err


# ------------------------------------------------------------------ 2. nothing lost on interrupt
def test_a_cut_jsonl_part_resumes_to_the_same_bytes(tmp_path: Path, capsys) -> None:
    names = pages(tmp_path / "in", 9)
    for name in ("whole.jsonl.gz", "whole.jsonl"):
        whole = tmp_path / name
        assert run(["extract", str(tmp_path / "in"), "--format", "jsonl", "-o", str(whole), "-q"], capsys)[0] == 0
        data = whole.read_bytes()
        cut = tmp_path / f"cut-{name}"
        part = cut.with_name(cut.name + ".part")
        part.write_bytes(data[: len(data) * 2 // 3])  # a kill in the middle of a record
        (tmp_path / f"{cut.name}.kitten-run.json").write_bytes((tmp_path / f"{name}.kitten-run.json").read_bytes())
        kept = list(complete_lines(part))
        assert 0 < len(kept) < len(names)
        code, _, err = run(["extract", str(tmp_path / "in"), "--format", "jsonl", "-o", str(cut)], capsys)
        assert code == 0 and f"{len(names) - len(kept)} pages in" in err and f"{len(kept)} done by an earlier run" in err
        assert cut.read_bytes() == data and not part.exists()


def _wait_for(path: Path, n: int, proc: subprocess.Popen) -> None:
    for _ in range(600):
        time.sleep(0.05)
        if proc.poll() is not None:
            return
        try:
            if path.exists() and len(list(complete_lines(path))) >= n:
                return
        except OSError:
            pass


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signal_to_the_process_group_keeps_the_records_and_redoes_the_page_in_flight(tmp_path: Path, sig) -> None:
    src = tmp_path / "in"
    names = pages(src, 3)
    pages(tmp_path / "slow", 1, rows=500)
    (tmp_path / "slow" / "p000.html").rename(src / "y.html")  # after the small pages in input order
    for name in pages(tmp_path / "more", 2):  # then small ones again
        (tmp_path / "more" / name).rename(src / f"z{name}")
    out = tmp_path / "out.jsonl"
    part = tmp_path / "out.jsonl.part"
    args = [sys.executable, "-m", "kitten", "extract", str(src), "--format", "jsonl", "-o", str(out)]
    proc = subprocess.Popen(args, env=ENV, stderr=subprocess.PIPE, text=True, start_new_session=True)
    _wait_for(part, 3, proc)
    os.killpg(proc.pid, sig)  # what timeout, SLURM and a terminal's Ctrl-C do: the whole group
    err = proc.communicate(timeout=30)[1]
    assert proc.returncode == 128 + sig and "INTERRUPTED" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1, err  # one line: how far the run went
    assert not out.exists()
    every = names + ["y.html", "zp000.html", "zp001.html"]
    kept = [json.loads(x) for x in complete_lines(part)]
    k = len(kept)
    assert 3 <= k < len(every) and [r["id"] for r in kept] == every[:k]
    assert all(r["status"] == "done" for r in kept)  # the page in flight is not "failed: worker died"
    again = subprocess.run(args, env=ENV, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{len(every) - k} pages in" in again.stderr and f"{k} done by an earlier run" in again.stderr
    assert [r["id"] for r in read_jsonl(out)] == every


def test_broken_pipe_on_stdout_ends_quietly(tmp_path: Path) -> None:
    pages(tmp_path / "in", 40, rows=20)
    for fmt in ("text", "jsonl"):
        proc = subprocess.Popen([sys.executable, "-m", "kitten", "extract", str(tmp_path / "in"), "--format", fmt,
                                 "-o", "-"], env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        assert proc.stdout.readline()
        proc.stdout.close()  # what head does
        err = proc.communicate(timeout=120)[1].decode()
        assert proc.returncode in (0, 141) and err == "", (proc.returncode, err)


# ------------------------------------------------------------------ 6. inputs and outputs
def test_odd_entries_in_a_folder_are_exclusions(tmp_path: Path, monkeypatch) -> None:
    src = tmp_path / "in"
    pages(src, 2)
    (src / "loop").symlink_to("loop")
    (src / "dangling.html").symlink_to("nowhere.html")
    (src / "sub").mkdir()
    (src / "sub" / "up").symlink_to("..")  # a folder loop: not followed
    os.close(os.open(os.fsencode(src) + b"/caf\xe9.html", os.O_CREAT | os.O_WRONLY, 0o644))
    (src / "locked").mkdir()
    (src / "locked" / "x.html").write_text("<p>x</p>", encoding="utf-8")
    real_scandir = os.scandir

    def scandir(path="."):  # an unreadable folder, also when the tests run as root
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    found = {str(f.rel): f.skip for f in walk([src])}
    assert found["p000.html"] == found["p001.html"] == ""
    assert "symlink loop" in found["loop"]
    assert "No such file" in found["dangling.html"]
    assert "not valid UTF-8" in found["caf\udce9.html"]
    assert "Permission denied" in found["locked"]
    assert "x.html" not in " ".join(found)


def test_odd_inputs_never_stop_the_batch(tmp_path: Path, capsys) -> None:
    src = tmp_path / "in"
    names = pages(src, 3)
    (src / "loop").symlink_to("loop")
    os.close(os.open(os.fsencode(src) + b"/caf\xe9.html", os.O_CREAT | os.O_WRONLY, 0o644))
    (src / "page.html?id=3").write_text("<p>Wget kept the query.</p>", encoding="utf-8")
    listing = tmp_path / "list.txt"
    listing.write_bytes(f"{src}\n{tmp_path / 'gone.html'}\n{src / names[0]}\n".encode() + os.fsencode(src) + b"/x\xff\n")
    out = tmp_path / "out.jsonl"
    code, _, err = run(["extract", "-i", str(listing), "--include", "*.html?*", "--format", "jsonl", "-o", str(out)],
                       capsys)
    assert code == 0, err
    status = {r["id"]: (r["status"], r["reason"]) for r in read_jsonl(out)}
    assert [status[n][0] for n in names] == ["done"] * 3  # and once: the duplicate line is left out
    assert len(status) == len(read_jsonl(out)) and "converted once: 1" in err
    assert status["page.html?id=3"][0] == "done"
    assert status["gone.html"] == ("excluded", "no such file or folder")
    assert status["loop"][0] == status["caf\\xe9.html"][0] == status["x\\xff"][0] == "excluded"
    # a missing path given on the command line stays a usage error
    code, _, err = run(["extract", str(tmp_path / "gone.html"), "-o", str(tmp_path / "o")], capsys)
    assert code == 2 and "no such file or folder" in err


def test_stdout_in_every_format(tmp_path: Path, capsys) -> None:
    names = pages(tmp_path / "in", 2)
    for command, fmt, check in (("extract", "text", lambda p: p.startswith("Title 0.\n")),
                                ("extract", "json", lambda p: json.loads(p)["text"].startswith("Title 0.")),
                                ("extract", "cleaneval", lambda p: p.startswith("URL: p000.html")),
                                ("normalize", None, lambda p: p.startswith("<?xml") or "<html" in p)):
        code, out, _ = run([command, str(tmp_path / "in"), "-o", "-", "-q"] + (["--format", fmt] if fmt else []), capsys)
        parts = out.split("\x1e\n")
        assert code == 0 and len(parts) == len(names) + 1 and parts[-1] == "" and check(parts[0]), (command, fmt, out[:200])
    assert not (Path.cwd() / "-").exists()
    for argv, message in ((["--format", "jsonl", "--shard-size", "2", "-o", "-"], "--shard-size"),
                          (["--format", "jsonl", "--engine", "dask", "-o", str(tmp_path / "x.jsonl")], "not a .jsonl")):
        code, _, err = run(["extract", str(tmp_path / "in"), *argv], capsys)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "x.jsonl").exists()


def test_json_format_carries_the_record_fields(tmp_path: Path, capsys) -> None:
    page = tmp_path / "p.html"
    page.write_text("<title>T</title><p>Body text here.</p>", encoding="utf-8")
    code, out, _ = run(["extract", str(page), "--format", "json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["status"] == "done" and data["url"] is None and data["encoding"]
    assert data["text"] == "Body text here.\n"
    assert data["metadata"]["author"] is None  # null, as in JSON Lines (not "")
