"""The batch under faults: kills, worker counts, memory, pages that would hold a worker.

    python benchmarks/batch_faults.py [--pages 400] [--kills 5] [--rss-pages 2000]

1. ``--kills`` times, ``kitten extract IN -o OUT -j 2`` is killed with SIGKILL at a random
   point (seeded), then run to the end once more; OUT must equal the output folder of an
   uninterrupted run byte for byte (page files), the log must hold exactly one line per
   input, and no worker may outlive its killed parent by more than 5 s.
2. ``-j 1`` and ``-j 4`` must write identical folders (page files and log).
3. The RSS of the worker over ``--rss-pages`` pages (the shared pages, cycled) with
   ``-j 1``: its value after the first 100 pages and its maximum; growth must stay
   under 20%.
4. A page with a 1,900 x 50 data table and a 30 MB page of flat sibling blocks among 20
   ordinary pages, ``-j 2``, default time limit (60 s): the run must end within the limit
   plus a margin, the two pages recorded (timeout or done), the others done.
"""
from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KITTEN = [sys.executable, "-m", "kitten", "extract"]
CORPORA = ("cleaneval-final", "dragnet", "modern", "readability", "cleanportaleval", "cleaneval-dev")


def corpus_pages(corpora: Path) -> list[Path]:
    return [p for name in CORPORA for p in sorted((corpora / name / "html").iterdir()) if p.is_file()]


def files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name not in ("kitten-log.jsonl", "kitten-removed-links.tsv")}


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def kills(src: Path, tmp: Path, n: int, seed: int) -> bool:
    ref = tmp / "ref"
    start = time.monotonic()
    subprocess.run([*KITTEN, str(src), "-o", str(ref), "-j", "2", "-q"], check=True)
    full = time.monotonic() - start
    inputs = len(list(src.iterdir()))
    out = tmp / "killed"
    rng = random.Random(seed)
    orphans = 0
    for k in range(n):
        proc = subprocess.Popen([*KITTEN, str(src), "-o", str(out), "-j", "2", "-q"])
        delay = rng.uniform(0.5, full * 0.6)
        time.sleep(delay)
        workers = children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(alive(w) for w in workers):
            time.sleep(0.1)
        left = [w for w in workers if alive(w)]
        orphans += len(left)
        log = (out / "kitten-log.jsonl").read_text().splitlines() if (out / "kitten-log.jsonl").exists() else []
        print(f"  kill {k + 1} after {delay:.1f} s: {len(log)} log lines, {len(workers)} workers, "
              f"{len(left)} alive 5 s later")
    subprocess.run([*KITTEN, str(src), "-o", str(out), "-j", "2", "-q"], check=True)
    same = files(out) == files(ref)
    log = [json.loads(x)["page"] for x in (out / "kitten-log.jsonl").read_text().splitlines()]
    one_each = len(log) == inputs and len(set(log)) == inputs
    print(f"kills: uninterrupted run {full:.1f} s; after {n} SIGKILLs and a re-run the page files are "
          f"{'identical' if same else 'DIFFERENT'}; log {len(log)} lines for {inputs} inputs "
          f"({'one each' if one_each else 'NOT one each'}); orphan workers: {orphans}")
    return same and one_each and orphans == 0


def jobs_1_4(src: Path, tmp: Path) -> bool:
    outs = {}
    for j in ("1", "4"):
        out = tmp / f"j{j}"
        subprocess.run([*KITTEN, str(src), "-o", str(out), "-j", j, "-q"], check=True)
        log = [{k: v for k, v in json.loads(x).items() if k != "output"}
               for x in (out / "kitten-log.jsonl").read_text().splitlines()]
        outs[j] = (files(out), log)
    same = outs["1"] == outs["4"]
    print(f"-j 1 and -j 4: {'identical' if same else 'DIFFERENT'} page files and log")
    return same


def rss(pages: list[Path], tmp: Path, n: int) -> bool:
    src = tmp / "rss-in"
    src.mkdir()
    for i in range(n):
        p = pages[i % len(pages)]
        (src / f"{i:05d}-{p.name}").symlink_to(p.resolve())
    proc = subprocess.Popen([*KITTEN, str(src), "-o", str(tmp / "rss-out"), "-j", "1", "-q", "--follow-symlinks"])
    samples: list[tuple[int, float]] = []
    while proc.poll() is None:
        time.sleep(0.5)
        log = tmp / "rss-out" / "kitten-log.jsonl"
        done = sum(1 for _ in open(log)) if log.exists() else 0
        for w in children(proc.pid):
            try:
                kb = int(next(x for x in Path(f"/proc/{w}/status").read_text().splitlines()
                              if x.startswith("VmRSS")).split()[1])
                samples.append((done, kb / 1024))
            except (OSError, StopIteration):
                pass
    early = [mb for d, mb in samples if 100 <= d <= 150] or [samples[0][1]]
    base, peak, last = max(early), max(mb for _, mb in samples), samples[-1][1]
    growth = peak / base - 1
    print(f"worker RSS over {n} pages: {base:.0f} MB after 100 pages, peak {peak:.0f} MB, last {last:.0f} MB "
          f"(growth {growth:+.1%})")
    return growth <= 0.20


def holders(pages: list[Path], tmp: Path) -> bool:
    src = tmp / "hold-in"
    src.mkdir()
    for p in pages[:20]:
        shutil.copy(p, src / p.name)
    head = "<tr>" + "".join(f"<th>Column {c}</th>" for c in range(50)) + "</tr>"
    body = "".join("<tr>" + "".join(f"<td>{r * c}</td>" for c in range(50)) + "</tr>" for r in range(1900))
    (src / "zz-table-1900x50.html").write_text(f"<html><body><table>{head}{body}</table></body></html>")
    with open(src / "zz-flat-30mb.html", "w") as fh:
        fh.write("<html><body>")
        i = 0
        while fh.tell() < 30 * 2**20:
            fh.write(f"<div>Sibling block {i} with a few words of text.</div>\n")
            i += 1
        fh.write("</body></html>")
    start = time.monotonic()
    subprocess.run([*KITTEN, str(src), "-o", str(tmp / "hold-out"), "-j", "2", "-q"], check=True)
    took = time.monotonic() - start
    log = {json.loads(x)["page"]: json.loads(x) for x in (tmp / "hold-out" / "kitten-log.jsonl").read_text().splitlines()}
    big = {k: (v["status"], v.get("reason", "")) for k, v in log.items() if k.startswith("zz-")}
    others = [v["status"] for k, v in log.items() if not k.startswith("zz-")]
    print(f"pathological pages: run {took:.0f} s; {big}; the other {len(others)} pages: "
          f"{ {s: others.count(s) for s in set(others)} }")
    return took < 60 + 45 and all(s in ("done", "timeout", "fallback") for s, _ in big.values()) \
        and all(s == "done" for s in others)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--pages", type=int, default=400)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--rss-pages", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", default="kills,jobs,rss,holders")
    args = ap.parse_args(argv)
    pages = corpus_pages(args.corpora)
    only = set(args.only.split(","))
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        src = tmp / "in"
        src.mkdir()
        for p in random.Random(args.seed).sample(pages, args.pages):
            shutil.copy(p, src / f"{p.parent.parent.name}-{p.name}")
        if "kills" in only:
            results["kills"] = kills(src, tmp, args.kills, args.seed)
        if "jobs" in only:
            results["jobs"] = jobs_1_4(src, tmp)
        if "rss" in only:
            results["rss"] = rss(pages, tmp, args.rss_pages)
        if "holders" in only:
            results["holders"] = holders(pages, tmp)
    print("batch faults:", ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in results.items()))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
