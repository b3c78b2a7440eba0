"""Replays the batch failures of issue 38 (parts 1, 2 and 6) and shows each fixed.

    python benchmarks/replay_failures.py [--pages 30] [--keep DIR]

Each case runs the ``kitten`` command as a user would, on pages it writes in a temporary
folder (or ``--keep DIR``), and prints PASS or FAIL with what it saw; the exit code is the
number of failed cases.

- settings: a re-run with other settings (``--boilerplate crf``, ``--format json``,
  ``--report``, ``--keep-threshold``, ``--jsonl-fields``) on an output folder, a JSON Lines
  file, JSON Lines shards (and ``--engine dask`` when the dask extra is installed) stops
  with a one-line error naming what differs, exit 2; the same command resumes; with
  ``--overwrite`` every input is converted again;
- interrupts: SIGINT (a terminal's Ctrl-C), SIGTERM and SIGHUP sent to the process group
  while a single JSON Lines file or an output folder is written: the records completed are
  kept (``NAME.part``, the log), none is logged ``worker died``, the re-run converts exactly
  the missing pages, and every input is in the output once;
- ``-o - | head``: ends quietly (exit 141, nothing on standard error);
- inputs: a missing path in an input list, a symlink loop, a dangling symlink, a name
  that is not UTF-8 and (when not run as root) an unreadable folder are logged
  exclusions; duplicate inputs converted once; ``--include`` takes ``page.html?id=3``;
  ``-o -`` separates text pages with the record separator; ``--engine dask -o x.jsonl`` is a
  usage error; ``--format json`` carries status, url, encoding and text, with nulls.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
KITTEN = [sys.executable, "-m", "kitten"]
RESULTS: list[bool] = []


def kitten(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*KITTEN, *args], capture_output=True, text=True, env=ENV, input=stdin, timeout=600)


def report(name: str, ok: bool, detail: str) -> None:
    RESULTS.append(ok)
    print(f"{'PASS' if ok else 'FAIL'}  {name}: {detail}", flush=True)


def page(i: int, rows: int = 150, cols: int = 20) -> str:
    """A page that takes about 0.2 s to convert (a data table), so that a run can be
    interrupted in its middle."""
    body = "".join("<tr>" + "".join(f"<td>r{r}c{c} {i}</td>" for c in range(cols)) + "</tr>" for r in range(rows))
    return (f"<html lang=en><title>Page {i}</title><h1>Page {i}</h1><p>The introduction of page {i}, "
            f"with a sentence.</p><table>{body}</table></html>")


def make_pages(folder: Path, n: int, rows: int = 150) -> list[str]:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        (folder / f"p{i:03d}.html").write_text(page(i, rows), encoding="utf-8")
    return [f"p{i:03d}.html" for i in range(n)]


def lines_of(path: Path) -> list[dict]:
    """The complete records of a JSON Lines file (or its .part, possibly cut)."""
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        import zlib

        raw = zlib.decompressobj(wbits=31).decompress(raw)
    out = []
    for line in raw.split(b"\n")[:-1]:
        out.append(json.loads(line))
    return out


def one_line(err: str) -> str:
    return err.strip().splitlines()[-1] if err.strip() else ""


# ----------------------------------------------------------------------------- settings
def settings_cases(tmp: Path, src: Path) -> None:
    folder = tmp / "T1"
    first = kitten("extract", str(src), "-o", str(folder), "-q")
    report("settings/first run", first.returncode == 0, f"exit {first.returncode}")
    for extra in (["--boilerplate", "crf"], ["--format", "json"], ["--report"], ["--preset", "main",
                                                                                 "--keep-threshold", "0.3"]):
        r = kitten("extract", str(src), "-o", str(folder), *extra)
        ok = r.returncode == 2 and "other settings" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        report(f"settings/folder re-run with {' '.join(extra)}", ok, f"exit {r.returncode}: {one_line(r.stderr)}")
    r = kitten("extract", str(src), "-o", str(folder))
    report("settings/folder same command resumes", r.returncode == 0 and "done by an earlier run" in r.stderr,
           f"exit {r.returncode}: {r.stderr.strip().splitlines()[0] if r.stderr.strip() else ''}")
    r = kitten("extract", str(src), "-o", str(folder), "--boilerplate", "crf", "--overwrite")
    log = [json.loads(x) for x in (folder / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines()]
    ok = r.returncode == 0 and "earlier run" not in r.stderr and all(x.get("gate") for x in log if x["status"] == "done")
    report("settings/--overwrite converts every input again with the gate", ok,
           f"exit {r.returncode}: {r.stderr.strip().splitlines()[0]}; {len(log)} log lines with the gate's field")

    jsonl = tmp / "T2.jsonl"
    kitten("extract", str(src), "--format", "jsonl", "-o", str(jsonl), "-q")
    for extra in (["--jsonl-fields", "tables"], ["--boilerplate", "crf"]):
        r = kitten("extract", str(src), "--format", "jsonl", "-o", str(jsonl), *extra)
        ok = r.returncode == 2 and "other settings" in r.stderr and len(r.stderr.strip().splitlines()) == 1
        report(f"settings/JSONL file re-run with {' '.join(extra)}", ok, f"exit {r.returncode}: {one_line(r.stderr)}")
    shards = tmp / "T3"
    kitten("extract", str(src), "--format", "jsonl", "--shard-size", "7", "-o", str(shards), "-q")
    r = kitten("extract", str(src), "--format", "jsonl", "--shard-size", "7", "-o", str(shards), "--boilerplate", "crf")
    ok = r.returncode == 2 and "other settings" in r.stderr
    report("settings/JSONL shards re-run with --boilerplate crf", ok, f"exit {r.returncode}: {one_line(r.stderr)}")
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError:
        print("skip  settings/--engine dask: the dask extra is not installed")
        return
    out = tmp / "T4"
    first = kitten("extract", str(src), "--format", "jsonl", "--engine", "dask", "-j", "1", "-o", str(out), "-q")
    r = kitten("extract", str(src), "--format", "jsonl", "--engine", "dask", "-j", "1", "-o", str(out),
               "--jsonl-fields", "lists")
    ok = first.returncode == 0 and r.returncode == 2 and "other settings" in r.stderr
    report("settings/--engine dask re-run with --jsonl-fields lists", ok, f"exit {r.returncode}: {one_line(r.stderr)}")


# ----------------------------------------------------------------------------- interrupts
def interrupt_case(tmp: Path, src: Path, names: list[str], sig: signal.Signals, kind: str) -> None:
    """Start a run, send ``sig`` to its process group once some records are written, run
    it again, and check what each run wrote."""
    name = f"interrupt/{sig.name} to the process group, {kind}"
    if kind == "JSONL file":
        out = tmp / f"int-{sig.name}.jsonl"
        args = ["extract", str(src), "--format", "jsonl", "-o", str(out), "-j", "2"]
        part = out.with_name(out.name + ".part")

        def written() -> list[dict]:
            return lines_of(part) if part.exists() else []
    else:
        out = tmp / f"int-{sig.name}"
        args = ["extract", str(src), "-o", str(out), "-j", "2"]
        part = out / "kitten-log.jsonl"

        def written() -> list[dict]:
            return [json.loads(x) for x in part.read_text(encoding="utf-8").splitlines()] if part.exists() else []
    proc = subprocess.Popen([*KITTEN, *args], env=ENV, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        try:
            if len(written()) >= 6:
                break
        except (OSError, ValueError):
            pass
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:  # the run ended before any record could be seen
        pass
    err = proc.communicate(timeout=60)[1]
    kept = written()
    ids = [r.get("id", r.get("page")) for r in kept]
    died = [r for r in kept if "worker died" in (r.get("reason") or "")]
    again = kitten(*args)
    final = (lines_of(out) if out.exists() else []) if kind == "JSONL file" else \
        [json.loads(x) for x in part.read_text(encoding="utf-8").splitlines()]
    final_ids = [r.get("id", r.get("page")) for r in final]
    missing = len(names) - len(kept)
    ok = (proc.returncode == 128 + sig and "INTERRUPTED" in err and "Traceback" not in err and 0 < len(kept) < len(names)
          and ids == names[:len(ids)] and not died and again.returncode == 0 and f"{missing} pages in" in again.stderr
          and f"{len(kept)} done by an earlier run" in again.stderr
          and sorted(final_ids) == names and len(set(final_ids)) == len(final_ids)
          and (kind != "JSONL file" or not part.exists()))
    report(name, ok, f"exit {proc.returncode}, {len(kept)} records kept ({len(died)} 'worker died'), "
                     f"re-run: {again.stderr.strip().splitlines()[0] if again.stderr.strip() else again.returncode}; "
                     f"{len(final_ids)} records for {len(names)} inputs, {len(set(final_ids))} distinct")


# ----------------------------------------------------------------------------- -o - | head
def pipe_cases(src: Path) -> None:
    for fmt in ("text", "jsonl"):
        proc = subprocess.Popen([*KITTEN, "extract", str(src), "--format", fmt, "-o", "-"], env=ENV,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        head = [proc.stdout.readline() for _ in range(2)]
        proc.stdout.close()  # what head does after its lines
        err = proc.communicate(timeout=120)[1].decode()
        ok = proc.returncode in (0, 141) and not err.strip() and all(head)
        report(f"pipe/-o - --format {fmt} | head -n 2", ok, f"exit {proc.returncode}, stderr {err.strip()[:80]!r}")


# ----------------------------------------------------------------------------- inputs
def input_cases(tmp: Path) -> None:
    src = tmp / "odd"
    normal = make_pages(src, 5, rows=2)
    listing = tmp / "list.txt"
    listing.write_text("".join(f"{src / n}\n" for n in normal) + f"{tmp / 'gone.html'}\n{src / normal[0]}\n",
                       encoding="utf-8")
    out = tmp / "list.jsonl"
    r = kitten("extract", "-i", str(listing), "--format", "jsonl", "-o", str(out))
    recs = lines_of(out) if out.exists() else []
    by_status = {x["id"]: x["status"] for x in recs}
    ok = r.returncode == 0 and by_status.get("gone.html") == "excluded" and len(recs) == 6 \
        and sum(s == "done" for s in by_status.values()) == 5
    report("inputs/missing path and a duplicate in an input list", ok,
           f"exit {r.returncode}, {len(recs)} records (5 pages once, gone.html {by_status.get('gone.html')}); "
           f"{one_line(r.stderr)}")

    (src / "loop").symlink_to("loop")
    (src / "dangling.html").symlink_to("nowhere.html")
    (src / "sub").mkdir()
    (src / "sub" / "up").symlink_to("..")
    os.close(os.open(os.fsencode(src) + b"/caf\xe9.html", os.O_CREAT | os.O_WRONLY, 0o644))
    (src / "page.html?id=3").write_text(page(99, 2), encoding="utf-8")
    locked = src / "locked"
    locked.mkdir()
    (locked / "inside.html").write_text(page(98, 2), encoding="utf-8")
    locked.chmod(0)
    folder = tmp / "odd-out"
    r = kitten("extract", str(src), "-o", str(folder), "--include", "*.html?*")
    locked.chmod(0o755)
    log = {x["page"]: x for x in map(json.loads, (folder / "kitten-log.jsonl").read_text(encoding="utf-8").splitlines())} \
        if (folder / "kitten-log.jsonl").exists() else {}
    excluded = sorted(k for k, v in log.items() if v["status"] == "excluded")
    done = sorted(k for k, v in log.items() if v["status"] == "done")
    want_excluded = {"loop", "dangling.html", "caf\\xe9.html"} | ({"locked"} if os.geteuid() != 0 else set())
    ok = r.returncode == 0 and want_excluded <= set(excluded) and set(normal) | {"page.html?id=3"} <= set(done)
    report("inputs/symlink loop, dangling link, non-UTF-8 name" + (", unreadable folder" if os.geteuid() else "")
           + " in a folder; --include", ok,
           f"exit {r.returncode}; excluded {excluded}; done {len(done)} ({', '.join(d for d in done if 'p0' not in d)})")

    r = kitten("extract", str(src / normal[0]), str(src / normal[1]), "-o", "-", "-q")
    pages = r.stdout.split("\x1e\n")
    report("outputs/-o - text: pages separated by the record separator",
           r.returncode == 0 and len(pages) == 3 and pages[-1] == "" and pages[0].startswith("Page 0."),
           f"exit {r.returncode}, {len(pages) - 1} pages")
    r = kitten("extract", str(src), "--format", "jsonl", "--engine", "dask", "-o", str(tmp / "d.jsonl"))
    report("outputs/--engine dask -o x.jsonl is a usage error", r.returncode == 2 and not (tmp / "d.jsonl").exists(),
           f"exit {r.returncode}: {one_line(r.stderr)}")
    r = kitten("extract", str(src / normal[0]), "--format", "json")
    data = json.loads(r.stdout) if r.returncode == 0 else {}
    ok = {"status", "url", "encoding", "text"} <= set(data) and data.get("url") is None \
        and data.get("metadata", {}).get("author") is None and data.get("text", "").startswith("Page 0.")
    report("outputs/--format json: status, url, encoding, text; null where absent", ok,
           f"keys {list(data)[:6]}..., metadata.author {data.get('metadata', {}).get('author')!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=30, help="pages of the interrupted runs (default 30)")
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it (default: a temporary one)")
    args = parser.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="kitten-replay-"))
    tmp.mkdir(parents=True, exist_ok=True)
    try:
        src = tmp / "set"
        names = make_pages(src, args.pages)
        settings_cases(tmp, src)
        for kind in ("JSONL file", "folder"):
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                interrupt_case(tmp, src, names, sig, kind)
        pipe_cases(src)
        input_cases(tmp)
    finally:
        if args.keep is None:
            for p in tmp.rglob("*"):
                if p.is_dir() and not p.is_symlink():
                    p.chmod(0o755)
            shutil.rmtree(tmp, ignore_errors=True)
    failed = RESULTS.count(False)
    print(f"{len(RESULTS) - failed} passed, {failed} failed")
    return failed


if __name__ == "__main__":
    raise SystemExit(main())
