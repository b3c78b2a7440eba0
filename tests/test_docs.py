"""Every example of the documentation runs.

Each fenced ```bash / ```sh and ```python block of README.md and docs/*.md is run: the
blocks of one document in order, in one temporary folder holding a copy of ``samples/``
(so a block may use what an earlier block of its document wrote), with the installed
``kitten`` command and this Python first on the PATH. Each ```toml block is loaded as a
configuration. A block opts out with a visible comment on the line right before it,
``<!-- skip: the reason -->``; a block that starts a Dask cluster is marked
``<!-- cluster -->`` (pytest marker ``cluster``). Blocks in other languages (``html``,
``text``, ``json`` ...) are illustrations and are not run.

The configuration reference of ``docs/configuration.md`` is checked against the
dataclasses (``KITTEN_UPDATE_DOCS=1`` rewrites it).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
RUN = {"bash": "shell", "sh": "shell", "python": "python", "toml": "toml"}
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```[ \t]*$", re.M | re.S)
MARK = re.compile(r"<!--\s*(skip|cluster)\b:?\s*(.*?)\s*-->\s*$")
TIMEOUT = 300


@dataclass
class Block:
    document: Path
    line: int
    kind: str
    code: str
    mark: str | None
    reason: str

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def blocks(document: Path) -> list[Block]:
    text = document.read_text(encoding="utf-8")
    found = []
    for m in FENCE.finditer(text):
        kind = RUN.get(m.group(1).lower())
        if kind is None:
            continue
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        mark = MARK.search(before)
        found.append(Block(document, text.count("\n", 0, m.start()) + 1, kind, m.group(2),
                           mark.group(1) if mark else None, mark.group(2) if mark else ""))
    return found


ALL = [b for d in DOCUMENTS for b in blocks(d)]


def _param(block: Block):
    marks = []
    if block.mark == "skip":
        marks.append(pytest.mark.skip(reason=f"marked in the documentation: {block.reason or 'skip'}"))
    elif block.mark == "cluster":
        marks.append(pytest.mark.cluster)
    return pytest.param(block, id=block.id, marks=marks)


@pytest.fixture(scope="session")
def workdirs(tmp_path_factory):
    """One folder per document, with a copy of samples/."""
    made: dict[Path, Path] = {}

    def get(document: Path) -> Path:
        if document not in made:
            folder = tmp_path_factory.mktemp(document.stem)
            shutil.copytree(ROOT / "samples", folder / "samples")
            made[document] = folder
        return made[document]

    return get


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)
    return env


@pytest.mark.parametrize("block", [_param(b) for b in ALL])
def test_documentation_example_runs(block: Block, workdirs) -> None:
    if block.kind == "toml":
        from kitten.config import Config, toml_module

        Config.from_dict(toml_module().loads(block.code))
        return
    if block.mark == "cluster":
        pytest.importorskip("distributed")
    folder = workdirs(block.document)
    if block.kind == "shell":
        argv = ["bash", "-euo", "pipefail", "-c", block.code]
    else:
        script = folder / f"example_{block.line}.py"
        script.write_text(block.code, encoding="utf-8")
        argv = [sys.executable, script.name]
    done = subprocess.run(argv, cwd=folder, env=_environment(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=TIMEOUT)
    assert done.returncode == 0, f"{block.id} exited {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_the_collector_finds_the_examples() -> None:
    """The README's recipes are among the blocks run, and every skip says why."""
    readme = [b for b in ALL if b.document.name == "README.md"]
    assert sum(1 for b in readme if b.mark is None) >= 5
    assert all(b.reason for b in ALL if b.mark == "skip")


def test_the_readme_is_a_front_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 20_000
    first = blocks(ROOT / "README.md")[0]
    assert "kitten extract samples" in first.code and "pytest" in first.code
    assert not re.search(r"\bissue \d+|GUIDE section", text)


def test_the_configuration_reference_is_current() -> None:
    from kitten.config import reference

    path = ROOT / "docs" / "configuration.md"
    text = path.read_text(encoding="utf-8")
    start, end = "<!-- reference: start -->\n", "<!-- reference: end -->"
    head, rest = text.split(start)
    _, tail = rest.split(end)
    current = head + start + reference() + end + tail
    if os.environ.get("KITTEN_UPDATE_DOCS") and current != text:
        path.write_text(current, encoding="utf-8")
        text = current
    assert text == current, "docs/configuration.md is not what the dataclasses say: KITTEN_UPDATE_DOCS=1 rewrites it"


def test_no_internal_references_in_the_user_documentation() -> None:
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        assert not re.search(r"\b[Ii]ssues? \d+|GUIDE section", text), document
