#!/usr/bin/env python3
"""The other side of marquee-bench's luma comparison: the CPU cost of one frame of a
one-pixel-per-frame scrolling message on luma.led_matrix's MAX7219 device.

Frames are produced by luma.core.legacy.show_message with no delay, into a serial
interface that sends nothing (luma.core.interface.serial.noop), so the time is luma's:
text drawing, the viewport crop, max7219 preprocessing (block orientation) and register
encoding. Prints one line of key=value fields; marquee-bench reads us_per_frame and
peak_rss_kb.

    python luma_compare.py --width 32 --height 8 --frames 2000 --block-orientation -90
"""
import argparse
import resource
import sys
import time

MESSAGE = "The quick brown fox jumps over the lazy dog 0123456789 #!?"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=32)
    parser.add_argument("--height", type=int, default=8)
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=100)
    parser.add_argument("--block-orientation", type=int, default=0, choices=[0, 90, -90, 180])
    parser.add_argument("--y-offset", type=int, default=0)
    parser.add_argument("--message", default=MESSAGE)
    args = parser.parse_args()

    from luma.core.interface.serial import noop
    from luma.core.legacy import show_message
    from luma.core.legacy.font import CP437_FONT
    from luma.led_matrix.device import max7219

    device = max7219(noop(), width=args.width, height=args.height, block_orientation=args.block_orientation)
    frames = 0
    start = cpu_start = None
    display = device.display

    class Done(Exception):
        pass

    def counting_display(image):
        nonlocal frames, start, cpu_start
        if frames == args.warmup:
            start, cpu_start = time.perf_counter(), time.process_time()
        display(image)
        frames += 1
        if frames >= args.warmup + args.frames:
            raise Done()

    device.display = counting_display
    try:
        while True:
            show_message(device, args.message, fill="white", font=CP437_FONT, scroll_delay=0, y_offset=args.y_offset)
    except Done:
        pass
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    timed = frames - args.warmup
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"luma us_per_frame={wall / timed * 1e6:.2f} cpu_us_per_frame={cpu / timed * 1e6:.2f} "
          f"peak_rss_kb={peak} frames={timed} width={args.width} height={args.height} "
          f"block_orientation={args.block_orientation} python={sys.version.split()[0]}")


if __name__ == "__main__":
    main()
