"""A rating chart written as a PNG with the standard library only (``zlib``, ``struct``).

``ai_plugins`` must not import pygame (see tests/test_net_layering.py) and matplotlib is not a
dependency, so the league's ``--plot`` draws its few rectangles and labels itself: an RGB
canvas, a 3×5 pixel font (upper-case letters, digits and a few signs, drawn at 2× scale) and a
PNG encoder (8-bit RGB, one IDAT chunk, filter type 0 on every row).
"""
from __future__ import annotations

import struct
import zlib
from typing import Sequence

RGB = tuple[int, int, int]

# 3 columns x 5 rows per glyph, row-major, "1" = ink.
_FONT: dict[str, str] = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", "A": "010101111101101", "B": "110101110101110",
    "C": "011100100100011", "D": "110101101101110", "E": "111100110100111",
    "F": "111100110100100", "G": "011100101101011", "H": "101101111101101",
    "I": "111010010010111", "J": "001001001101010", "K": "101101110101101",
    "L": "100100100100111", "M": "101111111101101", "N": "110101101101101",
    "O": "010101101101010", "P": "110101110100100", "Q": "010101101110011",
    "R": "110101110101101", "S": "011100010001110", "T": "111010010010010",
    "U": "101101101101111", "V": "101101101101010", "W": "101101111111101",
    "X": "101101010101101", "Y": "101101010010010", "Z": "111001010100111",
    "+": "000010111010000", "-": "000000111000000", ".": "000000000000010",
    "#": "101111101111101", ":": "000010000010000", "_": "000000000000111",
    "%": "101001010100101", "[": "110100100100110", "]": "011001001001011",
    "(": "010100100100010", ")": "010001001001010", ",": "000000000010100",
    "/": "001001010100100", "=": "000111000111000", " ": "000000000000000",
}


class Canvas:
    """A ``width`` × ``height`` RGB image filled with ``background``; coordinates in pixels,
    origin top left; drawing outside the canvas is clipped."""

    def __init__(self, width: int, height: int, background: RGB = (255, 255, 255)) -> None:
        if width < 1 or height < 1:
            raise ValueError("canvas size must be positive")
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(background) * (width * height))

    def rect(self, x: int, y: int, w: int, h: int, color: RGB) -> None:
        """Fill the rectangle with top left ``(x, y)`` and size ``w`` × ``h``."""
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        if x0 >= x1 or y0 >= y1:
            return
        row = bytes(color) * (x1 - x0)
        for yy in range(y0, y1):
            start = (yy * self.width + x0) * 3
            self.pixels[start:start + len(row)] = row

    def text(self, x: int, y: int, s: str, color: RGB = (0, 0, 0), scale: int = 2) -> int:
        """Draw ``s`` (upper-cased; unknown characters as ``#``) with its top left at
        ``(x, y)``; each glyph is 3×5 cells of ``scale`` pixels. Returns the width drawn."""
        cx = x
        for ch in s.upper():
            glyph = _FONT.get(ch, _FONT["#"])
            for i, bit in enumerate(glyph):
                if bit == "1":
                    self.rect(cx + (i % 3) * scale, y + (i // 3) * scale, scale, scale, color)
            cx += 4 * scale
        return cx - x

    def png(self) -> bytes:
        """The image encoded as a PNG file (8-bit RGB)."""
        def chunk(kind: bytes, data: bytes) -> bytes:
            return (struct.pack(">I", len(data)) + kind + data
                    + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

        stride = self.width * 3
        raw = b"".join(b"\0" + bytes(self.pixels[y * stride:(y + 1) * stride])
                       for y in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def text_width(s: str, scale: int = 2) -> int:
    """Width in pixels of ``s`` as :meth:`Canvas.text` draws it."""
    return 4 * scale * len(s)


def interval_chart(rows: Sequence[tuple[str, float, float | None, float | None]],
                   title: str = "") -> bytes:
    """A PNG with one line per ``(label, value, low, high)``: a bar from ``low`` to ``high``
    (omitted when None) and a square at ``value``, on a common horizontal axis with a line
    at 0 and the axis ends labelled. Returns the file's bytes; raises ValueError when
    ``rows`` is empty."""
    if not rows:
        raise ValueError("nothing to plot")
    label_w = max(text_width(r[0]) for r in rows) + 24
    plot_w, row_h, top = 560, 34, 44 if title else 16
    width, height = label_w + plot_w + 90, top + row_h * len(rows) + 40
    values = [v for r in rows for v in r[1:] if v is not None] + [0.0]
    lo, hi = min(values), max(values)
    pad = max(1.0, (hi - lo) * 0.08)
    lo, hi = lo - pad, hi + pad

    def x_of(v: float) -> int:
        return label_w + int((v - lo) / (hi - lo) * plot_w)

    c = Canvas(width, height)
    if title:
        c.text(12, 12, title, (0, 0, 0), 3)
    c.rect(x_of(0.0), top - 6, 1, row_h * len(rows) + 6, (170, 170, 170))
    for n, (label, value, low, high) in enumerate(rows):
        y = top + n * row_h + row_h // 2
        c.text(12, y - 5, label, (0, 0, 0))
        if low is not None and high is not None:
            c.rect(x_of(low), y - 2, max(1, x_of(high) - x_of(low)), 5, (90, 130, 200))
        c.rect(x_of(value) - 5, y - 5, 11, 11, (200, 40, 40))
        c.text(label_w + plot_w + 14, y - 5, f"{value:+.0f}", (0, 0, 0))
    axis_y = top + row_h * len(rows) + 4
    c.rect(label_w, axis_y, plot_w, 1, (0, 0, 0))
    for v in (lo, 0.0, hi):
        s = f"{v:+.0f}"
        c.text(min(width - text_width(s), max(0, x_of(v) - text_width(s) // 2)), axis_y + 8, s,
               (60, 60, 60))
    return c.png()


__all__ = ["Canvas", "interval_chart", "text_width"]
