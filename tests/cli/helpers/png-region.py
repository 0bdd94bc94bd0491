#!/usr/bin/python3
# What a screenshot shows in a rectangle: reads a PNG (8-bit greyscale, RGB
# or RGBA, not interlaced: what Chromium writes) with the standard library
# only (PNG spec, ISO/IEC 15948: zlib stream, one filter byte per line).
#   png-region.py size FILE               prints "WIDTH HEIGHT"
#   png-region.py ink FILE X Y W H        prints how many pixels of the
#                                         rectangle differ from its most
#                                         common colour, and how many colours
#   png-region.py crop FILE X Y W H OUT   writes the rectangle as a PNG
import struct
import sys
import zlib
from collections import Counter


def read_png(name):
    with open(name, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{name}: not a PNG")
    pos, idat, width = 8, b"", None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or colour not in (0, 2, 6) or interlace:
                raise SystemExit(f"{name}: depth {depth}, colour type {colour}, interlace {interlace}: not read here")
            bpp = {0: 1, 2: 3, 6: 4}[colour]
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if width is None:
        raise SystemExit(f"{name}: no IHDR")
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def region(rows, bpp, width, height, x, y, w, h):
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(width, x + w), min(height, y + h)
    if x1 <= x0 or y1 <= y0:
        raise SystemExit(f"rectangle {x},{y} {w}x{h} is outside the {width}x{height} picture")
    return [rows[j][x0 * bpp:x1 * bpp] for j in range(y0, y1)], x1 - x0, y1 - y0


def main():
    cmd, name = sys.argv[1], sys.argv[2]
    width, height, bpp, rows = read_png(name)
    if cmd == "size":
        print(width, height)
        return 0
    x, y, w, h = (int(float(v)) for v in sys.argv[3:7])
    part, pw, ph = region(rows, bpp, width, height, x, y, w, h)
    if cmd == "ink":
        pixels = Counter(line[i:i + bpp] for line in part for i in range(0, len(line), bpp))
        common = pixels.most_common(1)[0][1]
        print(pw * ph - common, len(pixels))
        return 0
    if cmd == "crop":
        colour = {1: 0, 3: 2, 4: 6}[bpp]
        raw = b"".join(b"\x00" + line for line in part)
        def chunk(kind, body):
            return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        with open(sys.argv[7], "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", pw, ph, 8, colour, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
        return 0
    raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    sys.exit(main())
