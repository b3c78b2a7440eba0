"""Progress (issue 38, part 5): a bar on a terminal, status lines otherwise, totals known
from the listing (pages, or bytes when there are WARC files), Dask tasks, the steps of
``kitten train``, and Ctrl-C ending every command with one line and exit code 130."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kitten.cli
from kitten.batch import run
from kitten.config import Config
from kitten.engine import Job
from kitten.io.sinks import FolderSink
from kitten.io.sources import InputStats, records
from kitten.progress import Progress, Steps, choose, duration

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
#: a status line with a total and a percentage
STATUS = re.compile(r"^kitten: (\d+)/(\d+) pages \((\d+\.\d)%\), [\d.]+ pages/s")


def pages(folder: Path, n: int) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"p{i:03d}.html").write_text(f"<h1>Title {i}</h1><p>Body of page {i}, a sentence.</p>",
                                                encoding="utf-8")


class Clock:
    """A clock the test moves (no test waits for real time)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_progress_lines_prints_a_status_with_the_total_and_a_percentage(tmp_path: Path) -> None:
    src = tmp_path / "in"
    pages(src, 4)
    shutil.copytree(ROOT / "samples" / "news", src / "news")
    proc = subprocess.run([sys.executable, "-m", "kitten", "extract", str(src), "-o", str(tmp_path / "out"),
                           "--progress", "lines"], env=ENV, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    status = [m for m in map(STATUS.match, proc.stderr.splitlines()) if m]
    assert status, proc.stderr
    assert status[-1].group(1) == status[-1].group(2) == "6" and status[-1].group(3) == "100.0"
    assert "done 6" in proc.stderr.splitlines()[0]


def test_progress_none_and_quiet_print_no_status(tmp_path: Path) -> None:
    pages(tmp_path / "in", 2)
    for extra in (["--progress", "none"], ["-q"]):
        proc = subprocess.run([sys.executable, "-m", "kitten", "extract", str(tmp_path / "in"), "-o",
                               str(tmp_path / "out"), "--overwrite", *extra],
                              env=ENV, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0 and not any(map(STATUS.match, proc.stderr.splitlines())), proc.stderr


def test_lines_come_every_interval_with_the_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress("lines", out, interval=30, clock=clock)
    p.begin()
    for done in range(1, 11):
        clock.now = done * 10.0  # a page every 10 s: a line every third page
        p.update(done, 10, "pages", done, {"done": done})
    lines = out.getvalue().splitlines()
    assert len(lines) == 3
    assert lines[0] == ("kitten: 3/10 pages (30.0%), 0.1 pages/s, 1 min 10 s left; "
                        "done 3, fallback 0, excluded 0, failed 0, timeout 0")
    p.close(complete=True)
    assert out.getvalue().splitlines()[-1].startswith("kitten: 10/10 pages (100.0%), 0.1 pages/s in 1 min 40 s;")


def test_without_a_total_the_count_and_the_rate() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress("lines", out, interval=0, clock=clock)
    clock.now = 4.0
    p.update(8, None, "pages", 8, {"done": 7, "excluded": 1})
    assert out.getvalue() == "kitten: 8 pages, 2.0 pages/s in 4 s; done 7, fallback 0, excluded 1, failed 0, timeout 0\n"


def test_an_interrupted_run_ends_without_a_status_line() -> None:
    out = io.StringIO()
    p = Progress("lines", out, interval=1e9)
    p.update(3, 10, "pages", 3, {"done": 3})
    p.close(complete=False)
    assert out.getvalue() == ""


def test_the_bar_shows_total_percentage_and_rate() -> None:
    out, clock = io.StringIO(), Clock()
    p = Progress("bar", out, clock=clock)
    for done in range(1, 5):
        p.update(done, 8, "pages", done, {"done": done})
    p.close(complete=False)
    drawn = out.getvalue()  # tqdm redraws at most every 0.2 s: here its first frame
    assert "kitten:" in drawn and "/8 [" in drawn and "%|" in drawn and "pages/s" in drawn
    assert drawn.endswith("\r")  # taken away at the end (the summary follows)


def test_a_warc_run_is_measured_in_bytes_read(tmp_path: Path) -> None:
    src = tmp_path / "in"
    pages(src, 2)
    shutil.copy(ROOT / "samples" / "warc" / "crawl.warc.gz", src / "crawl.warc.gz")
    out, stats = io.StringIO(), InputStats()
    progress = Progress("lines", out, interval=0)
    summary = run(records([str(src)], stats), Job("text", Config()), FolderSink(tmp_path / "out", removed_log=False),
                  progress=progress, inputs=stats)
    total = sum(f.stat().st_size for f in src.iterdir())
    assert stats.extent is not None and stats.extent.bytes == total
    lines = out.getvalue().splitlines()
    assert len(lines) == summary.pages + 1  # one a page (interval 0), and the last one
    shares = [float(re.match(r"kitten: [\d.]+ k?B/1.9 kB \(([\d.]+)%\)", line).group(1)) for line in lines]
    assert shares == sorted(shares) and shares[-1] == 100.0 and f"{summary.pages} pages" in lines[-1]


def test_the_default_is_a_bar_on_a_terminal_and_lines_otherwise() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert choose(None, Tty()) == "bar" and choose(None, io.StringIO()) == "lines"
    assert choose("none", Tty()) == "none"


def test_steps_are_reported_with_their_times() -> None:
    out, clock = io.StringIO(), Clock()
    steps = Steps("kitten train x", out, clock=clock)
    with steps.step("reading pages"):
        clock.now = 12.34
    with steps.step("fold 1/6", announce=False):
        clock.now = 20.0
    assert out.getvalue().splitlines() == ["kitten train x: reading pages ...", "kitten train x: reading pages: 12.3 s",
                                           "kitten train x: fold 1/6: 7.7 s"]
    assert duration(42) == "42 s" and duration(185) == "3 min 05 s" and duration(7620) == "2 h 07 min"


@pytest.mark.parametrize("command", [["eval", "out", "--gold", "gold"], ["train", "page-type"],
                                     ["extract", "page.html"]])
def test_ctrl_c_anywhere_ends_with_one_line_and_exit_130(command, monkeypatch, capsys) -> None:
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    import kitten.evaluation.report
    import kitten.train.page_type

    monkeypatch.setattr(kitten.evaluation.report, "run", interrupted)
    monkeypatch.setattr(kitten.train.page_type, "train", interrupted)
    monkeypatch.setattr(kitten.cli, "_convert", interrupted)
    assert kitten.cli.main(command) == 130
    captured = capsys.readouterr()
    assert captured.err == "kitten: interrupted\n" and captured.out == ""
