"""Files: finding input files in folders, reading them (gzip included, with a size cap)
and writing outputs atomically."""
from __future__ import annotations

import fnmatch
import hashlib
import os
import stat
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from kitten.io.records import InputError

#: Suffixes taken as pages when a folder is walked (each may be followed by .gz), plus
#: files without a suffix. Server-side script names are pages too: a wget mirror keeps them.
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml", ".xht", ".php", ".asp", ".aspx", ".jsp")
#: Suffixes of WARC files, taken when a folder is walked (a file given by name is read
#: whatever its name; WARC is recognised by content, not by suffix).
WARC_SUFFIXES = (".warc", ".warc.gz", ".warc.zst", ".warc.lz4")
#: Default cap on one input's size after decompression (``--max-page-size``). A page
#: takes about 30 bytes of memory per byte of markup while it is converted.
MAX_PAGE_BYTES = 64 * 1024 * 1024


class TooLarge(InputError):
    """An input past the size cap: a logged exclusion, not a failure."""


@dataclass(frozen=True, slots=True)
class Found:
    """A file found on the command line or in a folder walk. ``skip`` is set (with the
    reason) for entries that are accounted for but not read; ``key`` names the file
    itself (device and inode: the same file found twice has the same key)."""

    path: Path
    rel: Path  # relative to the folder given (mirrored in the output folder)
    skip: str = ""
    key: tuple[int, int] | None = None


def is_page_name(name: str) -> bool:
    low = name.lower()
    if low.endswith(".gz"):
        low = low[:-3]
    suffix = os.path.splitext(low)[1]
    return suffix in PAGE_SUFFIXES or suffix == ""


def is_warc_name(name: str) -> bool:
    return name.lower().endswith(WARC_SUFFIXES)


def is_input_name(name: str, include: tuple[str, ...] = ()) -> bool:
    """Whether a folder walk takes the file ``name``: a page or WARC name, or one that
    matches a glob of ``include`` (``--include``, e.g. ``*.html?*`` for wget's names)."""
    return is_page_name(name) or is_warc_name(name) or any(fnmatch.fnmatchcase(name, g) for g in include)


def _examine(path: Path) -> tuple[str, tuple[int, int] | None]:
    """Why ``path`` (symlinks followed) is not a regular file that can be read ("" if it
    is), and its key (device, inode) when it can be had."""
    try:
        st = os.stat(path)
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}", None
    key = (st.st_dev, st.st_ino)
    if stat.S_ISREG(st.st_mode):
        return "", key
    for test, what in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a folder")):
        if test(st.st_mode):
            return f"not a regular file: {what}", key
    return "not a regular file", key


def _not_regular(path: Path) -> str:
    return _examine(path)[0]


def _found(path: Path, rel: Path) -> Found:
    why, key = _examine(path)
    return Found(path, rel, why, key)


def _resolved(path: Path) -> Path | None:
    """``path`` with its symlinks resolved; None for a symlink loop (``resolve`` raises
    RuntimeError on Python 3.11, OSError later) or a path that cannot be resolved."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def _valid_name(rel: Path) -> bool:
    """Whether a path found in a walk is valid UTF-8 (a name that is not becomes an
    exclusion: logs and records are UTF-8)."""
    try:
        str(rel).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def walk(paths: Iterable[str | Path], follow_symlinks: bool = False,
         skipped: dict[str, int] | None = None, include: tuple[str, ...] = ()) -> Iterator[Found]:
    """The files named by ``paths``: files as given, folders walked recursively (sorted,
    hidden entries skipped). In folders only page-like and WARC names are taken (and
    names matching a glob of ``include``); other names are counted in ``skipped`` (by
    suffix). Only regular files are read: whatever else is met comes with a ``skip``
    reason and is never fatal: a missing path, FIFOs, devices and sockets (also behind
    symlinks), symlink loops, dangling symlinks, folders that cannot be read, names that
    are not valid UTF-8, and symlinks that leave the folder given unless ``follow_symlinks``."""
    for p in map(Path, paths):
        if p.is_dir():
            yield from _walk_folder(p, follow_symlinks, skipped, include)
        elif p.exists() or p.is_symlink():
            yield _found(p, Path(p.name))
        else:
            yield Found(p, Path(p.name), "no such file or folder")


def _walk_folder(p: Path, follow_symlinks: bool, skipped: dict[str, int] | None,
                 include: tuple[str, ...]) -> Iterator[Found]:
    top = _resolved(p) or p.absolute()
    seen = {top}
    unreadable: list[OSError] = []  # folders os.walk could not list (its onerror)
    for dirpath, dirnames, filenames in os.walk(p, followlinks=follow_symlinks, onerror=unreadable.append):
        yield from _unreadable(p, unreadable)
        keep = []
        for d in sorted(dirnames):
            if d.startswith("."):
                continue
            full = Path(dirpath) / d
            real = _resolved(full)
            if real is None:
                yield Found(full, full.relative_to(p), "cannot be read: a symlink loop")
                continue
            if follow_symlinks and real in seen:
                continue  # a symlink loop
            seen.add(real)
            if not follow_symlinks and not real.is_relative_to(top):
                continue
            if not _valid_name(full.relative_to(p)):
                yield Found(full, full.relative_to(p), "the name is not valid UTF-8")
                continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            if name.startswith("."):
                continue
            full = Path(dirpath) / name
            rel = full.relative_to(p)
            if not is_input_name(name, include):
                if skipped is not None:
                    key = os.path.splitext(name.lower().removesuffix(".gz"))[1] or name
                    skipped[key] = skipped.get(key, 0) + 1
                continue
            if not _valid_name(rel):
                yield Found(full, rel, "the name is not valid UTF-8")
                continue
            if full.is_symlink() and not follow_symlinks:
                real = _resolved(full)
                if real is None:
                    yield Found(full, rel, "cannot be read: a symlink loop")
                    continue
                if not real.is_relative_to(top):
                    yield Found(full, rel, "symlink leaves the input folder (--follow-symlinks to read it)")
                    continue
            yield _found(full, rel)
    yield from _unreadable(p, unreadable)


def _unreadable(top: Path, errors: list[OSError]) -> Iterator[Found]:
    """The folders a walk of ``top`` could not list, as exclusions."""
    while errors:
        exc = errors.pop(0)
        where = Path(exc.filename) if exc.filename else top
        try:
            rel = where.relative_to(top)
        except ValueError:
            rel = Path(where.name)
        yield Found(where, rel if str(rel) != "." else Path(top.name), f"cannot be read: {exc.strerror or exc}")


def read_file(path: Path, max_bytes: int = MAX_PAGE_BYTES) -> bytes:
    """The file's bytes, decompressed if it is gzip (by content), at most ``max_bytes``
    either way (past it: ``TooLarge``)."""
    why = _not_regular(path)
    if why:
        raise InputError(f"{path}: {why}")
    with open(path, "rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(f"larger than the size cap of {max_bytes} bytes")
    if data[:2] == b"\x1f\x8b":
        return gunzip(data, max_bytes, path.name.lower().endswith(".gz"))
    return data


def gunzip(data: bytes, max_bytes: int, must_be_gzip: bool = True) -> bytes:
    """``data`` decompressed (several gzip members in a row included), at most ``max_bytes``
    (a gzip bomb is ``TooLarge``). Bytes that only look like gzip are returned as they
    are unless ``must_be_gzip``."""
    out = bytearray()
    rest = data
    try:
        while rest:
            d = zlib.decompressobj(wbits=31)
            out += d.decompress(rest, max_bytes + 1 - len(out))
            if len(out) > max_bytes:
                raise TooLarge(f"expands beyond the size cap of {max_bytes} bytes")
            if d.unconsumed_tail:
                raise TooLarge(f"expands beyond the size cap of {max_bytes} bytes")
            if not d.eof:
                raise zlib.error("truncated gzip data")
            rest = d.unused_data
            if rest[:2] != b"\x1f\x8b":
                break
    except zlib.error as exc:
        if must_be_gzip:
            raise InputError(f"broken gzip data ({exc})") from exc
        return data  # not really gzip: let triage judge the bytes
    return bytes(out)


def output_stem(rel: Path) -> Path:
    """``a/b/page.html.gz`` -> ``a/b/page``; ``crawl.warc.gz`` -> ``crawl`` (its records
    go into that folder)."""
    name = rel.name
    low = name.lower()
    for suffix in WARC_SUFFIXES:
        if low.endswith(suffix):
            return rel.parent / name[: -len(suffix)]
    if low.endswith(".gz"):
        name = name[:-3]
    stem, ext = os.path.splitext(name)
    if ext.lower() not in PAGE_SUFFIXES:
        stem = name
    return rel.parent / stem


#: longest output file name component kept as it is (bytes; file systems allow 255,
#: and the suffixes of the dump files take up to 20)
MAX_NAME_BYTES = 200


def _short(part: str) -> str:
    """A name component cut to ``MAX_NAME_BYTES`` with a hash of the whole, so that
    long names stay distinct."""
    raw = part.encode("utf-8", "surrogateescape")
    if len(raw) <= MAX_NAME_BYTES:
        return part
    digest = hashlib.sha1(raw).hexdigest()[:12]
    head = raw[: MAX_NAME_BYTES - 13].decode("utf-8", "ignore")
    return f"{head}-{digest}"


def output_path(out_dir: Path, stem: Path, suffix: str) -> Path:
    """Where an output with ``suffix`` goes: ``OUT/a/b/page<suffix>``."""
    return out_dir / (str(stem) + suffix)


def plan_stems(found: list[Found]) -> list[Path]:
    """Give every input file its own output name (without suffix), relative to the output
    folder.

    ``page``, ``page.htm``, ``page.html`` and ``page.html.gz`` in one folder would all
    write ``page.txt``; when names collide (ignoring case, for case-insensitive file
    systems), each colliding input keeps its whole name: ``page.htm.txt``,
    ``page.html.gz.txt`` (the one without a suffix keeps ``page.txt``). Name components
    too long for a file system are cut, with a hash.
    """
    stems = [Path(*map(_short, output_stem(f.rel).parts)) for f in found]
    groups: dict[str, list[int]] = {}
    for i, stem in enumerate(stems):
        groups.setdefault(str(stem).lower(), []).append(i)
    planned = list(stems)
    taken = {key for key, members in groups.items() if len(members) == 1}
    for key, members in groups.items():
        if len(members) == 1:
            continue
        for i in members:
            rel = Path(*map(_short, found[i].rel.parts))
            stem = rel if rel.name != stems[i].name else stems[i]
            n = 2
            candidate = stem
            while str(candidate).lower() in taken:
                candidate = stem.with_name(f"{stem.name}-{n}")
                n += 1
            taken.add(str(candidate).lower())
            planned[i] = candidate
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
    fd, tmp = tempfile.mkstemp(prefix=".kitten-", suffix=".tmp", dir=path.parent)  # short: any name fits
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
