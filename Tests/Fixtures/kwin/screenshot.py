#!/usr/bin/python3
"""Photographs KWin through its own interface (org.kde.KWin.ScreenShot2) and
writes a PNG: screenshot.py OUT.png [X Y WIDTH HEIGHT]. The whole output
without an area. Needs the session bus KWin is on (DBUS_SESSION_BUS_ADDRESS)
and python3-dbus."""
import os
import struct
import sys
import zlib

import dbus


def capture(area):
    bus = dbus.SessionBus()
    shot = dbus.Interface(bus.get_object("org.kde.KWin", "/org/kde/KWin/ScreenShot2"), "org.kde.KWin.ScreenShot2")
    read, write = os.pipe()
    options = dbus.Dictionary({"native-resolution": True}, signature="sv")
    if area:
        info = shot.CaptureArea(*[dbus.Int32(v) for v in area], options, dbus.types.UnixFd(write))
    else:
        info = shot.CaptureActiveScreen(options, dbus.types.UnixFd(write))
    os.close(write)
    width, height, stride = int(info["width"]), int(info["height"]), int(info["stride"])
    # Exactly stride x height bytes: KWin keeps a copy of the write end, so end of file never comes.
    data = bytearray()
    while len(data) < stride * height:
        chunk = os.read(read, stride * height - len(data))
        if not chunk:
            break
        data += chunk
    os.close(read)
    return width, height, stride, bytes(data)


def png(width, height, stride, argb):
    """Premultiplied little-endian ARGB32 (B, G, R, A in memory) as an opaque RGBA PNG."""
    # Whole rows at a time (slices, not pixels: a pixel loop takes seconds in Python): each row's
    # B, G, R bytes moved to R, G, B, alpha 255, behind the row's filter byte (0, none).
    rows = bytearray((4 * width + 1) * height)
    for y in range(height):
        row = argb[y * stride:y * stride + 4 * width]
        start = y * (4 * width + 1) + 1
        end = start + 4 * width
        rows[start:end:4] = row[2::4]
        rows[start + 1:end:4] = row[1::4]
        rows[start + 2:end:4] = row[0::4]
        rows[start + 3:end:4] = b"\xff" * width
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(bytes(rows), 6)) + chunk(b"IEND", b""))


if __name__ == "__main__":
    area = [int(v) for v in sys.argv[2:6]] if len(sys.argv) >= 6 else None
    width, height, stride, data = capture(area)
    with open(sys.argv[1], "wb") as out:
        out.write(png(width, height, stride, data))
    print(width, height)
