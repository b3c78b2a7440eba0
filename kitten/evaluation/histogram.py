"""Histograms of per-document scores as SVG (``kitten eval --histograms DIR``).

One image per system, three panels side by side: the per-document F1, precision and
recall, in bins of 0.05 (the last bin holds 1.0), each with its mean as a dashed line.
A document enters a panel when the value is defined (a failed extractor has none; an
empty output has no precision, an empty gold no recall), so each panel says how many
documents it shows. Plain SVG written here: no plotting library.

>>> svg = histogram_svg("demo", [("F1", [0.1, 0.95, 1.0])])
>>> svg.startswith("<svg") and "n = 3" in svg
True
"""
from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Sequence
from xml.sax.saxutils import escape

from kitten.io.files import atomic_write

__all__ = ["BINS", "bin_counts", "histogram_svg", "write_histograms"]

BINS = 20
_PANEL_W, _PANEL_H = 330, 250
_LEFT, _RIGHT, _TOP, _BOTTOM = 48, 12, 44, 40
_HEADER = 28
_BAR = "#4c72b0"


def bin_counts(values: Sequence[float], bins: int = BINS) -> list[int]:
    """Counts of ``values`` (in [0, 1]) in ``bins`` equal bins, 1.0 in the last.

    >>> bin_counts([0.0, 0.49, 0.5, 1.0], 2)
    [2, 2]
    """
    counts = [0] * bins
    for v in values:
        counts[min(max(int(v * bins), 0), bins - 1)] += 1
    return counts


def _step(top: int) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving at most 5 ticks up to ``top``."""
    raw = max(top / 5, 1)
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if m * power >= raw:
            return m * power
    return 10 * power


def _text(x: float, y: float, text: str, anchor: str = "middle", extra: str = "", size: int = 11) -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-family="sans-serif" '
            f'font-size="{size}"{extra}>{escape(text)}</text>')


def _panel(x0: float, y0: float, label: str, values: Sequence[float]) -> list[str]:
    """One histogram whose frame starts at (x0, y0)."""
    w, h = _PANEL_W - _LEFT - _RIGHT, _PANEL_H - _TOP - _BOTTOM
    left, top = x0 + _LEFT, y0 + _TOP
    counts = bin_counts(values)
    step = _step(max(counts, default=0))
    ymax = max(step, math.ceil(max(counts, default=0) / step) * step)
    mean = sum(values) / len(values) if values else None
    title = f"{label}: n = {len(values)}" + (f", mean {mean:.3f}" if mean is not None else "")
    out = [_text(x0 + _PANEL_W / 2, y0 + 18, title, extra=' font-weight="bold"')]
    for tick in range(0, ymax + 1, step):
        y = top + h - tick / ymax * h
        out.append(f'<line x1="{left:.1f}" y1="{y:.1f}" x2="{left + w:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(_text(left - 5, y + 4, str(tick), anchor="end"))
    bar_w = w / BINS
    for i, c in enumerate(counts):
        if c:
            bh = c / ymax * h
            out.append(f'<rect x="{left + i * bar_w + 0.5:.1f}" y="{top + h - bh:.1f}" width="{bar_w - 1:.1f}" '
                       f'height="{bh:.1f}" fill="{_BAR}"><title>{i / BINS:.2f}-{(i + 1) / BINS:.2f}: {c}'
                       f'</title></rect>')
    out.append(f'<line x1="{left:.1f}" y1="{top + h:.1f}" x2="{left + w:.1f}" y2="{top + h:.1f}" stroke="#000"/>')
    out.append(f'<line x1="{left:.1f}" y1="{top:.1f}" x2="{left:.1f}" y2="{top + h:.1f}" stroke="#000"/>')
    for k in range(6):
        x = left + k / 5 * w
        out.append(f'<line x1="{x:.1f}" y1="{top + h:.1f}" x2="{x:.1f}" y2="{top + h + 4:.1f}" stroke="#000"/>')
        out.append(_text(x, top + h + 16, f"{k / 5:.1f}"))
    out.append(_text(left + w / 2, top + h + 32, f"per-document {label}"))
    out.append(_text(x0 + 12, top + h / 2, "documents", extra=f' transform="rotate(-90 {x0 + 12:.1f} {top + h / 2:.1f})"'))
    if mean is not None:
        x = left + mean * w
        out.append(f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{top + h:.1f}" stroke="#c44e52" '
                   f'stroke-dasharray="4 3"/>')
    return out


def histogram_svg(title: str, panels: Sequence[tuple[str, Sequence[float]]], note: str = "") -> str:
    """An SVG document: ``title`` (and ``note``) above one histogram per ``(label, values)``."""
    width, height = _PANEL_W * len(panels), _PANEL_H + _HEADER
    body = [_text(8, 18, title + (f" ({note})" if note else ""), anchor="start", size=13)]
    for n, (label, values) in enumerate(panels):
        body += _panel(n * _PANEL_W, _HEADER, label, values)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">\n<title>{escape(title)}</title>\n'
            f'<rect width="100%" height="100%" fill="#fff"/>\n' + "\n".join(body) + "\n</svg>\n")


_UNSAFE = re.compile(r"[^\w.-]+")


def write_histograms(report, folder: Path) -> list[Path]:
    """Write ``<system>.svg`` in ``folder`` for every system of a
    :class:`kitten.evaluation.report.Report`; return the paths written."""
    folder = Path(folder)
    paths = []
    gold = report.gold
    for s in report.systems:
        scores = [score for _, score in s.scores]
        panels = [(label, [v for v in (getattr(x, attr) for x in scores) if v is not None])
                  for label, attr in (("F1", "f1"), ("precision", "precision"), ("recall", "recall"))]
        failed = s.summary.cases.get("failed", 0)
        note = f"{len(scores)} documents of {gold.corpus}" + (f"; {failed} failed, not shown" if failed else "")
        path = folder / (_UNSAFE.sub("_", s.name) + ".svg")
        atomic_write(path, histogram_svg(s.name, panels, note))
        paths.append(path)
    return paths
