#!/usr/bin/env python3
"""An independent decoder of marquee's HUB75 trace (`--hub75-dump`), from the protocol.

It knows only the trace format and how a plain HUB75 panel works: six shift registers per
chain that take R1 G1 B1 R2 G2 B2 on CLK's rising edge, the first bit clocked ending at the
far end of the chain (column 0); LAT's rising edge copies them to the outputs; A-E pick the
row pair as a number; each `oe WEIGHT` lights the latched row pair, row r of the upper half
and r + rows/2 of the lower, for WEIGHT units. It handles one chain of plain panels (no
multiplexing, direct addressing).

Usage: decode_trace.py TRACE WIDTH HEIGHT
Prints one line per pixel row: for each pixel `r,g,b` (the lit weight of each colour),
separated by spaces.
"""
import sys


def main():
    path, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    lines = open(path, encoding="ascii").read().splitlines()
    if lines[0] != "# hub75 trace v1":
        sys.exit("not a hub75 trace v1")
    pins = dict((name, int(gpio)) for name, gpio in (field.split("=") for field in lines[1].split()[1:]))
    bit = {name: 1 << gpio for name, gpio in pins.items()}
    colours = ["r1", "g1", "b1", "r2", "g2", "b2"]
    half = height // 2
    registers = {name: [] for name in colours}
    latched = {name: [0] * width for name in colours}
    light = [[[0, 0, 0] for _ in range(width)] for _ in range(height)]
    level = 0
    for line in lines[2:]:
        if line.startswith("#"):
            continue
        kind, value = line.split()
        if kind in ("set", "clr"):
            mask = int(value, 16)
            before = level
            level = level | mask if kind == "set" else level & ~mask
            if not before & bit["clk"] and level & bit["clk"]:
                for name in colours:
                    registers[name].append(1 if level & bit[name] else 0)
            if not before & bit["lat"] and level & bit["lat"]:
                for name in colours:
                    # The last `width` bits clocked: the first of them is at the far end, column 0.
                    latched[name] = registers[name][-width:]
                    registers[name] = registers[name][-width:]
        elif kind == "oe":
            weight = int(value)
            row = sum(1 << index for index, name in enumerate("abcde") if name in bit and level & bit[name])
            row %= half
            for x in range(width):
                for channel in range(3):
                    if latched[colours[channel]][x]:
                        light[row][x][channel] += weight
                    if latched[colours[channel + 3]][x]:
                        light[row + half][x][channel] += weight
        else:
            sys.exit("unknown line: " + line)
    for row in light:
        print(" ".join("%d,%d,%d" % tuple(pixel) for pixel in row))


main()
