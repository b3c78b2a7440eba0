"""Check that Kitten works installed every way a user installs it (not run by the tests:
it builds wheels and downloads the dependencies, a few minutes).

    python benchmarks/install_check.py

For each of ``pip install .`` into a fresh virtual environment, ``pip install --target
DIR .`` and ``pip install --user .`` (with ``PYTHONUSERBASE`` in a temporary folder), run
from a folder outside the checkout: ``kitten extract`` (or ``python -m kitten``) on a
sample page must end with status done and the page's text; then, with the installed
tables model deleted, the command must stop with a one-line error and exit 2.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ("<html><body><h1>Install check</h1><p>A sentence to extract after installing.</p>"
        "<table><tr><th>Year</th><th>Sales</th></tr><tr><td>2020</td><td>12</td></tr>"
        "<tr><td>2021</td><td>15</td></tr></table></body></html>")


def sh(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)


def check(name: str, python: str, env: dict, work: Path) -> bool:
    page = work / "page.html"
    page.write_text(PAGE, encoding="utf-8")
    out = work / f"out-{name}"
    r = sh([python, "-m", "kitten", "extract", str(page), "-o", str(out), "-q"], env, work)
    log = [json.loads(x) for x in (out / "kitten-log.jsonl").read_text().splitlines()] if (out / "kitten-log.jsonl").is_file() else []
    text = (out / "page.txt").read_text() if (out / "page.txt").is_file() else ""
    ok = r.returncode == 0 and log and log[0]["status"] == "done" and "after installing" in text and "Sales" in text
    print(f"{name}: exit {r.returncode}, status {log[0]['status'] if log else None}, text {text.splitlines()[:3]}")
    where = sh([python, "-c", "import kitten.resources as r; print(r.CLASSIFIERS)"], env, work).stdout.strip()
    model = Path(where) / "tables.json"
    saved = model.read_bytes()
    model.unlink()
    try:
        r = sh([python, "-m", "kitten", "extract", str(page), "-o", str(out) + "-nomodel"], env, work)
    finally:
        model.write_bytes(saved)
    lines = r.stderr.strip().splitlines()
    print(f"{name}: model deleted -> exit {r.returncode}, stderr {lines}")
    return bool(ok) and r.returncode == 2 and len(lines) == 1


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        base = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        # 1. a fresh virtual environment, not editable
        venv = tmp / "venv"
        sh([sys.executable, "-m", "venv", str(venv)])
        py = str(venv / "bin" / "python")
        r = sh([py, "-m", "pip", "install", "-q", str(ROOT)], base)
        print("pip install . :", r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else "")
        results["venv"] = r.returncode == 0 and check("venv", py, base, tmp)
        # 2. --target DIR, run with PYTHONPATH=DIR by the venv's python (dependencies there)
        target = tmp / "target"
        r = sh([py, "-m", "pip", "install", "-q", "--target", str(target), str(ROOT)], base)
        print("pip install --target:", r.returncode)
        shutil.rmtree(venv / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages" / "kitten",
                      ignore_errors=True)  # only the --target copy is left to find
        results["target"] = r.returncode == 0 and check("target", py, {**base, "PYTHONPATH": str(target)}, tmp)
        # 3. --user with a private user base (a system python outside any venv)
        userbase = tmp / "userbase"
        env = {**base, "PYTHONUSERBASE": str(userbase), "PIP_BREAK_SYSTEM_PACKAGES": "1"}
        system_python = shutil.which("python3") or sys.executable
        r = sh([system_python, "-m", "pip", "install", "-q", "--user", str(ROOT)], env)
        print("pip install --user:", r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else "")
        results["user"] = r.returncode == 0 and check("user", system_python, env, tmp)
    print("install check:", ", ".join(f"{k} {'ok' if v else 'FAILED'}" for k, v in results.items()))
    return 0 if all(results.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
