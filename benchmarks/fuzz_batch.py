"""Fuzz the batch with mutated real pages: every input must end with a logged outcome.

    python benchmarks/fuzz_batch.py [--minutes 10] [--batch 200] [--seed 1] [--keep DIR]

Rounds of ``--batch`` pages, each a shared corpus page mutated by a few random edits
(byte flips, cuts, a segment repeated, deep nesting, a tag soup insertion, a flood of
attributes, a wrong charset declaration, NUL and control bytes, gzip of a cut page),
run through ``kitten extract DIR -o OUT -j 2 --page-timeout 20``, until ``--minutes``
have passed. A round fails when the command does not exit 0 or the log does not hold
exactly one line per input. Printed: rounds, pages, outcomes by status, worker deaths
and timeouts (with their pages kept under ``--keep`` to replay). Not part of the tests
(GUIDE: no long runs in CI); the tests' own fuzzing is tests/test_fuzz.py.
"""
from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ("cleaneval-final", "dragnet", "modern", "readability", "cleanportaleval", "cleaneval-dev")


def mutate(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(9)
        n = len(b) or 1
        at = rng.randrange(n)
        if op == 0:  # byte flips
            for _ in range(rng.randint(1, 50)):
                b[rng.randrange(n)] = rng.randrange(256) if b else 0
        elif op == 1:  # a cut
            del b[at:at + rng.randint(1, max(1, n // 4))]
        elif op == 2:  # a segment repeated
            seg = b[at:at + rng.randint(1, 5000)]
            b[at:at] = seg * rng.randint(2, 50)
        elif op == 3:  # deep nesting
            tag = rng.choice([b"div", b"table", b"ul", b"b", b"span", b"td", b"li"])
            d = rng.randint(100, 5000)
            b[at:at] = b"<" + tag + b">" * 1 + (b"<" + tag + b">") * d
        elif op == 4:  # tag soup
            soup = rng.choice([b"<table><tr><td><table>", b"</p></div></td>", b"<!--", b"<![CDATA[", b"<script>",
                               b"<svg><foreignObject><math>", b"<select><option>", b"<?xml version='1.0'?>",
                               b"<frameset>", b"<plaintext>", b"<title>", b"&#x0;&#xD800;&#1114112;"])
            b[at:at] = soup
        elif op == 5:  # many attributes on one element
            attrs = b" ".join(b"a%d=x" % i for i in range(rng.randint(100, 20000)))
            b[at:at] = b"<p " + attrs + b">"
        elif op == 6:  # a wrong or odd charset
            cs = rng.choice([b"utf-16", b"shift_jis", b"x-unknown", b"utf-7", b"iso-2022-jp", b"replacement"])
            b[0:0] = b'<meta charset="' + cs + b'">'
        elif op == 7:  # NUL and controls
            for _ in range(rng.randint(1, 100)):
                b.insert(rng.randrange(len(b) + 1), rng.randrange(0, 32))
        else:  # a huge rowspan / colspan
            b[at:at] = b'<table><tr><td rowspan="65534" colspan="1000">x</td></tr></table>'
    out = bytes(b)
    if rng.random() < 0.05:
        out = gzip.compress(out, mtime=0)[: rng.randint(10, len(out) + 20)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", type=Path, default=ROOT / ".cache" / "corpora")
    ap.add_argument("--minutes", type=float, default=10)
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="copy the pages that timed out or killed their worker here")
    args = ap.parse_args(argv)
    pages = [p for name in CORPORA for p in sorted((args.corpora / name / "html").iterdir()) if p.is_file()]
    rng = random.Random(args.seed)
    statuses: Counter = Counter()
    deaths: Counter = Counter()
    bad_rounds = 0
    rounds = total = 0
    end = time.monotonic() + args.minutes * 60
    while time.monotonic() < end:
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            src = tmp / "in"
            src.mkdir()
            for i in range(args.batch):
                p = rng.choice(pages)
                (src / f"{rounds:04d}-{i:04d}.html").write_bytes(mutate(p.read_bytes(), rng))
            r = subprocess.run([sys.executable, "-m", "kitten", "extract", str(src), "-o", str(tmp / "out"), "-j", "2",
                                "-q", "--page-timeout", "20"], capture_output=True, text=True)
            log = [json.loads(x) for x in (tmp / "out" / "kitten-log.jsonl").read_text().splitlines()] \
                if (tmp / "out" / "kitten-log.jsonl").exists() else []
            names = {x["page"] for x in log}
            ok = r.returncode == 0 and len(log) == args.batch and len(names) == args.batch
            if not ok:
                bad_rounds += 1
                print(f"round {rounds}: exit {r.returncode}, {len(log)} log lines for {args.batch} inputs\n{r.stderr[-1500:]}")
            for x in log:
                statuses[x["status"]] += 1
                if x["status"] in ("timeout", "failed") and ("worker" in x.get("reason", "") or x["status"] == "timeout"):
                    deaths[x.get("reason", "")[:60]] += 1
                    if args.keep:
                        args.keep.mkdir(parents=True, exist_ok=True)
                        shutil.copy(src / x["page"], args.keep / x["page"])
            rounds += 1
            total += args.batch
            print(f"round {rounds}: {total} pages, {dict(statuses)}", flush=True)
    print(f"\nfuzz: {rounds} rounds, {total} mutated pages in {args.minutes:g} min; outcomes {dict(statuses)}; "
          f"rounds without one logged outcome per input: {bad_rounds}; worker deaths and timeouts: {dict(deaths)}")
    return 1 if bad_rounds else 0


if __name__ == "__main__":
    raise SystemExit(main())
