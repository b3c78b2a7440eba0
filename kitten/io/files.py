"""Finding input pages, reading them (gzip included) and writing outputs atomically."""
from __future__ import annotations

import gzip
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

#: Suffixes taken as pages when a folder is walked (each may be followed by .gz),
#: plus files without a suffix.
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".xht")
#: A compressed page may not expand beyond this (a gzip bomb must not eat memory).
MAX_DECOMPRESSED = 512 * 1024 * 1024


class InputError(OSError):
    """An input that cannot be read as a page."""


@dataclass(frozen=True, slots=True)
class InputFile:
    path: Path
    rel: Path  # path relative to the folder given on the command line (mirrored in OUT)
    stem: Path | None = None  # output path without suffix; default: rel without its page suffix

    @property
    def out_stem(self) -> Path:
        return self.stem if self.stem is not None else output_stem(self.rel)


def is_page_name(name: str) -> bool:
    low = name.lower()
    if low.endswith(".gz"):
        low = low[:-3]
    suffix = os.path.splitext(low)[1]
    return suffix in PAGE_SUFFIXES or suffix == ""


def discover(paths: Iterable[str | Path]) -> Iterator[InputFile]:
    """Yield the pages named by ``paths``: files as given, folders walked recursively
    (sorted, hidden entries skipped, only page-like names)."""
    for p in map(Path, paths):
        if p.is_dir():
            for dirpath, dirnames, filenames in os.walk(p):
                dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
                for name in sorted(filenames):
                    if name.startswith(".") or not is_page_name(name):
                        continue
                    full = Path(dirpath) / name
                    yield InputFile(full, full.relative_to(p))
        elif p.exists():
            yield InputFile(p, Path(p.name))
        else:
            raise InputError(f"no such file or folder: {p}")


def read_page(path: Path) -> bytes:
    """The page's bytes, decompressed if it is gzip (by name or by content)."""
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
                out = fh.read(MAX_DECOMPRESSED + 1)
        except (OSError, EOFError) as exc:
            if path.name.lower().endswith(".gz"):
                raise InputError(f"{path}: broken gzip data ({exc})") from exc
            return data  # not really gzip: let triage judge the bytes
        if len(out) > MAX_DECOMPRESSED:
            raise InputError(f"{path}: expands beyond {MAX_DECOMPRESSED} bytes")
        return out
    return data




def output_stem(rel: Path) -> Path:
    """``a/b/page.html.gz`` -> ``a/b/page``."""
    name = rel.name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    stem, ext = os.path.splitext(name)
    if ext.lower() not in PAGE_SUFFIXES:
        stem = name
    return rel.parent / stem


def output_path(out_dir: Path, item: InputFile, suffix: str) -> Path:
    """Where ``item``'s output with ``suffix`` goes: ``OUT/a/b/page<suffix>``."""
    return out_dir / (str(item.out_stem) + suffix)


def plan_outputs(items: list[InputFile]) -> list[InputFile]:
    """Give every input its own output name.

    ``page``, ``page.htm``, ``page.html`` and ``page.html.gz`` in one folder would all
    write ``page.txt``; when names collide (ignoring case, for case-insensitive file
    systems), each colliding input keeps its whole name: ``page.htm.txt``,
    ``page.html.gz.txt`` (the one without a suffix keeps ``page.txt``).
    """
    groups: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        groups.setdefault(str(item.out_stem).lower(), []).append(i)
    planned = list(items)
    taken = {key for key, members in groups.items() if len(members) == 1}
    for key, members in groups.items():
        if len(members) == 1:
            continue
        for i in members:
            item = items[i]
            stem = item.rel if item.rel.name != item.out_stem.name else item.out_stem
            n = 2
            candidate = stem
            while str(candidate).lower() in taken:
                candidate = stem.with_name(f"{stem.name}-{n}")
                n += 1
            taken.add(str(candidate).lower())
            planned[i] = InputFile(item.path, item.rel, candidate)
    return planned


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _umask()  # read once at import (os.umask can only be read by setting it)


def atomic_write(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename: a reader never
    sees a partial file, and an interrupted batch never leaves a truncated one. The file
    gets the permissions of an ordinary new file (0666 less the umask), not the temporary
    file's 0600."""
    path.parent.mkdir(parents=True, exist_ok=True)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            os.fchmod(fh.fileno(), 0o666 & ~_UMASK)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
