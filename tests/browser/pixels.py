"""Reading the colours of a screenshot without an imaging library: Playwright's PNGs are 8-bit RGB
or RGBA, not interlaced, which a few lines of zlib and the five PNG filters decode."""
import struct
import zlib
from pathlib import Path


def read_png(path: Path):
    """Returns (width, height, rows), rows[y] a list of (r, g, b) tuples."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    offset, idat, header = 8, b"", None
    while offset < len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        body = data[offset + 8:offset + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        offset += 12 + length
    width, height, depth, color, _, _, interlace = header
    assert depth == 8 and color in (2, 6) and interlace == 0, f"unsupported PNG: depth {depth}, colour type {color}"
    channels = 3 if color == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, position = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[position], bytearray(raw[position + 1:position + 1 + stride])
        position += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else up_left)) & 0xFF
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def tint(path: Path):
    """The most common colour of an image that is not near white, grey or black: the tint of a
    row's background (text and borders are fewer pixels), or None if it is all neutral."""
    _, _, rows = read_png(path)
    counts = {}
    for row in rows:
        for r, g, b in row:
            if max(r, g, b) - min(r, g, b) < 12:
                continue  # neutral: white, greys, black text
            counts[(r, g, b)] = counts.get((r, g, b), 0) + 1
    return max(counts, key=counts.get) if counts else None


def is_amber(rgb) -> bool:
    """Orange-yellow: red highest, then green well above blue."""
    r, g, b = rgb
    return r > g > b and g - b > 15 and r - g < 80


def is_red(rgb) -> bool:
    """Red-pink: red highest, green and blue close to each other."""
    r, g, b = rgb
    return r > g and r > b and abs(g - b) <= 15
