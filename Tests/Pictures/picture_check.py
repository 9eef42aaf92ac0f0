"""Decodes pictures with other people's decoders and prints which pixels light, by the rule
Docs/icons.md states, for PictureDecoderTests to compare with marquee's own decoders.

    python3 Tests/Pictures/picture_check.py FILE...

For each file one line: the path, the width, the height, the frame count, then each
frame's rows as hex of their bits (most significant first, rows padded to bytes).

- PNG: netpbm's pngtopam -alphapam (16-bit samples kept); lit where alpha is at least half
  when the picture has an alpha channel or a tRNS chunk, else where the luminance
  (0.299 R + 0.587 G + 0.114 B) is at least half.
- GIF: Pillow, frame by frame as it composes them; opaque lights when any frame has a
  transparent colour, else bright.
- XBM and PBM: netpbm (xbmtopbm, and reading P1/P4 as netpbm writes them); 1 bits light.
"""
import struct
import subprocess
import sys


def rows_hex(width, height, lit):
    out = []
    for y in range(height):
        bits = 0
        for x in range(width):
            bits = bits << 1 | (1 if lit(x, y) else 0)
        pad = (-width) % 8
        bits <<= pad
        out.append("%0*x" % ((width + pad) // 4, bits))
    return ",".join(out)


def read_pam(data):
    header, _, rest = data.partition(b"ENDHDR\n")
    fields = {}
    for line in header.decode().splitlines()[1:]:
        if line and not line.startswith("#"):
            key, _, value = line.partition(" ")
            fields[key] = value
    width, height, depth, maxval = (int(fields[k]) for k in ("WIDTH", "HEIGHT", "DEPTH", "MAXVAL"))
    size = 2 if maxval > 255 else 1
    count = width * height * depth
    samples = struct.unpack(">%d%s" % (count, "H" if size == 2 else "B"), rest[: count * size])
    return width, height, depth, maxval, fields.get("TUPLTYPE", ""), samples


def png_transparency(path):
    """Whether the PNG has an alpha channel (colour types 4 and 6) or a tRNS chunk."""
    data = open(path, "rb").read()
    if data[25] in (4, 6):
        return True
    position = 8
    while position + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[position : position + 8])
        if kind == b"tRNS":
            return True
        position += 12 + length
    return False


def png(path):
    data = subprocess.run(["pngtopam", "-alphapam", path], check=True, capture_output=True).stdout
    width, height, depth, maxval, kind, samples = read_pam(data)
    transparent = png_transparency(path) and kind.endswith("_ALPHA")

    def lit(x, y):
        at = (y * width + x) * depth
        if transparent:
            return 2 * samples[at + depth - 1] >= maxval
        if depth >= 3:
            r, g, b = samples[at : at + 3]
        else:
            r = g = b = samples[at]
        return 299 * r + 587 * g + 114 * b >= 500 * maxval

    return width, height, [rows_hex(width, height, lit)]


def gif_transparency(data):
    """Whether a graphic control extension marks a colour transparent, walking the blocks
    (sub-blocks by their lengths, so image data is never taken for an extension)."""
    position = 13
    if data[10] & 0x80:
        position += 3 * (2 << (data[10] & 7))

    def skip(position):
        while data[position]:
            position += 1 + data[position]
        return position + 1

    while position < len(data) and data[position] != 0x3B:
        if data[position] == 0x21:
            if data[position + 1] == 0xF9 and data[position + 3] & 1:
                return True
            position = skip(position + 2)
        else:
            flags = data[position + 9]
            position += 10 + (3 * (2 << (flags & 7)) if flags & 0x80 else 0)
            position = skip(position + 1)
    return False


def gif(path):
    from PIL import Image, ImageSequence

    image = Image.open(path)
    transparent = gif_transparency(open(path, "rb").read())
    frames = []
    for frame in ImageSequence.Iterator(image):
        rgba = frame.convert("RGBA")
        pixels = rgba.load()
        if transparent:
            lit = lambda x, y: 2 * pixels[x, y][3] >= 255
        else:
            lit = lambda x, y: 299 * pixels[x, y][0] + 587 * pixels[x, y][1] + 114 * pixels[x, y][2] >= 500 * 255
        frames.append(rows_hex(image.width, image.height, lit))
    return image.width, image.height, frames


def netpbm_bits(data):
    """P4 as netpbm writes it: magic, width, height, one whitespace, rows."""
    parts = data.split(None, 3)
    width, height = int(parts[1]), int(parts[2])
    stride = (width + 7) // 8
    body = data[len(data) - stride * height :]
    return width, height, lambda x, y: body[y * stride + x // 8] & (0x80 >> (x % 8))


def xbm(path):
    data = subprocess.run(["xbmtopbm", path], check=True, capture_output=True).stdout
    width, height, lit = netpbm_bits(data)
    return width, height, [rows_hex(width, height, lit)]


def pbm(path):
    # pnmtopnm writes the raw form whatever it reads: netpbm's own reading of the file.
    data = subprocess.run(["pamtopnm", path], check=True, capture_output=True).stdout
    width, height, lit = netpbm_bits(data)
    return width, height, [rows_hex(width, height, lit)]


def main():
    for path in sys.argv[1:]:
        head = open(path, "rb").read(8)
        if head.startswith(b"\x89PNG"):
            width, height, frames = png(path)
        elif head.startswith(b"GIF"):
            width, height, frames = gif(path)
        elif head[:2] in (b"P1", b"P4"):
            width, height, frames = pbm(path)
        else:
            width, height, frames = xbm(path)
        print(path, width, height, len(frames), " ".join(frames))


if __name__ == "__main__":
    main()
