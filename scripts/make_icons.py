#!/usr/bin/env python3
"""Draws Sidecar's icons (app icon and tray states) as RGBA PNGs with no dependencies.

Run from the repository root: python3 scripts/make_icons.py. The outputs are committed;
this script is how to change them.
"""
import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "icons"


def png(path, size, pixel):
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            rows.extend(pixel((x + 0.5) / size, (y + 0.5) / size))
    def chunk(kind, data):
        c = kind + data
        return struct.pack(">I", len(data)) + c + struct.pack(">I", zlib.crc32(c) & 0xFFFFFFFF)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
    data += chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b"")
    path.write_bytes(data)


def rounded_square(u, v, r=0.22):
    dx = max(abs(u - 0.5) - (0.5 - r), 0)
    dy = max(abs(v - 0.5) - (0.5 - r), 0)
    return math.hypot(dx, dy) <= r


def bubble(u, v):
    # A speech bubble: an ellipse with a small tail at the lower left.
    e = ((u - 0.5) / 0.30) ** 2 + ((v - 0.46) / 0.24) ** 2 <= 1
    tail = 0.28 <= u <= 0.42 and 0.62 <= v <= 0.78 and (u - 0.28) >= (v - 0.62) * 0.9
    return e or tail


def dots(u, v):
    return any(math.hypot(u - cx, v - 0.46) <= 0.04 for cx in (0.38, 0.5, 0.62))


def icon(top, bottom, badge=None):
    def pixel(u, v):
        if badge and math.hypot(u - 0.80, v - 0.20) <= 0.17:
            return badge + (255,)
        if not rounded_square(u, v):
            return (0, 0, 0, 0)
        if bubble(u, v):
            return (255, 255, 255, 255) if not dots(u, v) else top + (255,)
        t = v
        return tuple(int(a + (b - a) * t) for a, b in zip(top, bottom)) + (255,)
    return pixel


VIOLET, INDIGO = (124, 58, 237), (67, 56, 202)
GREY, DARK_GREY = (120, 120, 130), (80, 80, 90)
RED = (239, 68, 68)

OUT.mkdir(exist_ok=True)
for size, name in ((32, "32x32.png"), (128, "128x128.png"), (256, "128x128@2x.png"), (512, "icon.png")):
    png(OUT / name, size, icon(VIOLET, INDIGO))
png(OUT / "tray.png", 64, icon(VIOLET, INDIGO))
png(OUT / "tray-alert.png", 64, icon(VIOLET, INDIGO, badge=RED))
png(OUT / "tray-quiet.png", 64, icon(GREY, DARK_GREY))
print("icons written to", OUT)
