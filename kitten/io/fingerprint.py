"""What decides a run's output, recorded beside it so that a re-run resumes only under
the same settings.

A ``Fingerprint`` holds Kitten's version, the output format, the fields and per-page side
outputs asked for (JSON Lines extras, ``report``, ``dumps``), a hash of the effective
configuration (every field of ``kitten.config.Config``, so a new configuration field
counts without a change here) and a hash of each model file the run loads. A sink writes
it beside what a re-run trusts (``RUN_NAME`` in an output folder, ``NAME.kitten-run.json``
beside a JSON Lines file; the task manifests of ``kitten.dask``); a re-run that finds
outputs to resume compares its own with it and stops with ``SettingsMismatch`` (a one-line
usage error naming what differs) unless told to overwrite.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kitten import __version__
from kitten.config import Config
from kitten.io.files import atomic_write
from kitten.io.records import InputError

#: the fingerprint file in an output folder (and the suffix of the one beside a file)
RUN_NAME = "kitten-run.json"
#: configuration keys named in a mismatch message, at most
SHOWN_KEYS = 3


class SettingsMismatch(InputError):
    """The outputs a run would resume were made with other settings."""


@dataclass(frozen=True)
class Fingerprint:
    """What decides a run's output (see the module's docstring)."""

    version: str
    format: str
    fields: tuple[str, ...]
    config: str  # hash of the effective configuration
    models: tuple[tuple[str, str], ...]  # (model name, hash of its file), sorted
    #: the effective configuration, flattened ("boilerplate.method" -> value): not
    #: compared (the hash is), only read to name the keys that differ
    settings: dict[str, Any] = field(default_factory=dict, compare=False)

    def as_dict(self) -> dict:
        return {"kitten": self.version, "format": self.format, "fields": list(self.fields),
                "config": self.config, "models": dict(self.models), "settings": self.settings}

    @classmethod
    def from_dict(cls, d: dict) -> "Fingerprint":
        return cls(str(d.get("kitten")), str(d.get("format")), tuple(d.get("fields") or ()), str(d.get("config")),
                   tuple(sorted((d.get("models") or {}).items())), dict(d.get("settings") or {}))

    def differences(self, earlier: "Fingerprint") -> list[str]:
        """What differs from ``earlier``, one short phrase each (empty: the same)."""
        out = []
        if self.version != earlier.version:
            out.append(f"Kitten version {earlier.version} -> {self.version}")
        if self.format != earlier.format:
            out.append(f"format {earlier.format} -> {self.format}")
        if self.fields != earlier.fields:
            out.append(f"fields [{','.join(earlier.fields)}] -> [{','.join(self.fields)}]")
        if self.config != earlier.config:
            keys = sorted(k for k in set(self.settings) | set(earlier.settings)
                          if self.settings.get(k) != earlier.settings.get(k))
            shown = [f"{k} {_short(earlier.settings.get(k))} -> {_short(self.settings.get(k))}"
                     for k in keys[:SHOWN_KEYS]]
            more = f", {len(keys) - SHOWN_KEYS} more" if len(keys) > SHOWN_KEYS else ""
            out.append("configuration" + (f" ({'; '.join(shown)}{more})" if shown else ""))
        if self.models != earlier.models:
            mine, theirs = dict(self.models), dict(earlier.models)
            names = sorted(k for k in set(mine) | set(theirs) if mine.get(k) != theirs.get(k))
            out.append(f"models ({', '.join(names)})")
        return out

    def check(self, earlier: dict | None, where: str) -> None:
        """Raise ``SettingsMismatch`` unless ``earlier`` (a recorded fingerprint, None when
        none was found) is this one. ``where``: the output, for the message."""
        if earlier is None:
            raise SettingsMismatch(f"{where} holds outputs of a run whose settings are unknown (no {RUN_NAME}): "
                                   "use --overwrite to convert every input again, or another -o")
        differ = self.differences(Fingerprint.from_dict(earlier))
        if differ:
            raise SettingsMismatch(f"{where} was written with other settings: {'; '.join(differ)} "
                                   "(use --overwrite to convert every input again, or another -o)")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _flat(d: dict, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = list(v) if isinstance(v, tuple) else v
    return out


def fingerprint(fmt: str, target: str, config: Config, fields: tuple[str, ...] = ()) -> Fingerprint:
    """The fingerprint of a run writing ``fmt`` (the format as the user named it: text,
    blocks, json, cleaneval, jsonl, xhtml) through the pipeline ``target`` under
    ``config``, with the extra ``fields`` (JSON Lines extras, ``report``, ``dumps``)."""
    settings = _flat(dataclasses.asdict(config))
    digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode("utf-8")).hexdigest()[:16]
    models = tuple(sorted((name, _file_hash(path)) for name, path in model_files(config, target).items()))
    return Fingerprint(__version__, fmt, tuple(fields), digest, models, settings)


def model_files(config: Config, target: str) -> dict[str, Path]:
    """The model files a run of ``target`` under ``config`` loads (a new model: add it here)."""
    if target == "xhtml":
        return {}
    from kitten.boilerplate.crf import model_path, settings_path
    from kitten.page_type import MODEL_NAME as PAGE_TYPE_MODEL
    from kitten.resources import classifiers_dir

    base = classifiers_dir(config.rules.classifiers)
    files: dict[str, Path] = {}
    if config.tables.enabled:
        files["tables"], files["cells"] = base / "tables.json", base / "cells.json"
    if config.boilerplate.method == "crf":
        crf = model_path(config.boilerplate.model, config.rules.classifiers)
        files["boilerplate"], files["boilerplate-settings"] = crf, settings_path(crf)
        files["page-type"] = classifiers_dir() / PAGE_TYPE_MODEL  # kitten.page_type.load: the shipped folder
    return files


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "absent"


def read_fingerprint(path: Path) -> dict | None:
    """The fingerprint recorded in ``path`` (None when there is none that can be read)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("fingerprint") if isinstance(data, dict) and isinstance(data.get("fingerprint"), dict) else None


def write_fingerprint(path: Path, fp: Fingerprint) -> None:
    atomic_write(path, json.dumps({"fingerprint": fp.as_dict()}, ensure_ascii=False, indent=1) + "\n")


def sidecar(target: Path) -> Path:
    """Where the fingerprint of the output ``target`` is kept: in it when it is a folder,
    beside it (``NAME.kitten-run.json``) when it is a file."""
    return target / RUN_NAME if target.is_dir() else target.with_name(f"{target.name}.{RUN_NAME}")


__all__ = ["Fingerprint", "RUN_NAME", "SettingsMismatch", "fingerprint", "model_files", "read_fingerprint",
           "sidecar", "write_fingerprint"]
