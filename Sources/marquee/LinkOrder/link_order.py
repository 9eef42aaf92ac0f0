#!/usr/bin/env python3
"""Writes link-order.txt: the functions a running sign executes, for the linker to lay out first.

A release `marquee` is one 7 MB file of code; the kernel maps it 64 KB at a time around each
page a process touches, so code a run needs, scattered through the file, costs far more
resident memory than its own size. Listing the functions that start-up and the common display
modes execute lets the linker (`ld.lld --symbol-ordering-file`, set in Package.swift) put them
side by side at the front of `.text`.

The list is what valgrind's callgrind saw executed in each run below, in that order: the
32x8 scroll that `marquee-bench --scenario rss` measures comes first, then cycle mode with
transitions, a MAX7219 board, and `marquee serve` answering the page and the API. Functions
that sit in their own section (`.text.NAME`) come first; functions inside a larger section
that holds several (code the compiler emitted without a section of its own) come after, since
listing them moves their whole section.

Run it after changes that rename many functions (Docs/performance.md, "Resident memory");
names the linker no longer finds are skipped, so a stale list only costs memory:

    swift build -c release --product marquee
    python3 Sources/marquee/LinkOrder/link_order.py
    rm .build/release/marquee && swift build -c release --product marquee

Needs valgrind and readelf (binutils).
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
MESSAGE = "The quick brown fox jumps over the lazy dog 0123456789"


def runs(marquee, scratch):
    """The command lines to trace, each with an optional action while it runs."""
    dump = os.path.join(scratch, "spi.bin")
    return [
        ([marquee, "--width", "32", "--height", "8", "--fps", "200", "--output", "ascii", "--frames", "400", MESSAGE], None),
        ([marquee, "--width", "32", "--height", "8", "--output", "ascii", "--no-wait", "--mode", "cycle", "--in", "scroll-left",
          "--out", "fade", "--dwell", "0.2", "--frames", "300", "Platform 3", "Next: 12:04", "列车"], None),
        ([marquee, "--board", os.path.join(ROOT, "Boards", "max7219-fc16-32x8.json"), "--spi-dump", dump, "--no-wait",
          "--frames", "300", MESSAGE], None),
        ([marquee, "serve", "--listen", "127.0.0.1:0", "--output", "ascii", "--width", "32", "--height", "8", MESSAGE], browse),
    ]


def browse(process, scratch):
    """Asks the served sign for its page, state and frame, changes the content, then stops it."""
    port = None
    deadline = time.monotonic() + 60
    while port is None and time.monotonic() < deadline:
        line = process.stderr.readline().decode(errors="replace")
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if found:
            port = int(found.group(1))
        elif not line and process.poll() is not None:
            raise SystemExit("marquee serve ended before it listened")
    base = f"http://127.0.0.1:{port}"
    for path in ["/", "/api/state", "/api/frame", "/api/stats"]:
        urllib.request.urlopen(base + path, timeout=30).read()
    request = urllib.request.Request(base + "/api/content", method="PUT", data=b'{"messages": ["Hello"]}',
                                     headers={"Content-Type": "application/json"})
    urllib.request.urlopen(request, timeout=30).read()
    process.send_signal(signal.SIGTERM)


def traced_functions(binary, command, action, scratch):
    """The names of the functions of `binary` that `command` executed, as callgrind lists them."""
    out = os.path.join(scratch, "callgrind.out")
    if os.path.exists(out):
        os.remove(out)
    arguments = ["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}"] + command
    process = subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=scratch)
    try:
        if action:
            action(process, scratch)
        process.stderr.read()
    except BaseException:
        process.kill()
        process.wait()
        raise
    # A stopped `marquee serve` exits 143 (128 + SIGTERM), after blanking the sign.
    if process.wait(timeout=600) not in (0, 143 if action else 0):
        raise SystemExit(f"{' '.join(command[:3])}… ended with {process.returncode} under valgrind")
    names, objects, functions, current = [], {}, {}, None
    for line in open(out, errors="replace"):
        found = re.match(r"^(c?ob|c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not found:
            continue
        kind, ident, name = found.groups()
        table = objects if kind.endswith("ob") else functions
        if name is not None:
            table[ident] = name
        if kind == "ob":
            current = objects[ident]
        elif kind == "fn" and current == binary:
            # callgrind marks recursion depth as NAME'2; the symbol is NAME.
            names.append(functions[ident].split("'")[0])
    return names


def sectioned(link_file_list):
    """The functions compiled into a section of their own, from the objects and libraries linked."""
    paths = [line.strip() for line in open(link_file_list) if line.strip()]
    static = "/".join(shutil.which("swiftc").split("/")[:-2]) + "/lib/swift_static/linux"
    paths += [os.path.join(static, name) for name in os.listdir(static) if name.endswith(".a")]
    own = set()
    for path in paths:
        listing = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
        own.update(re.findall(r"\] \.text\.(\S+)", listing))
    return own


def main():
    release = os.path.join(ROOT, ".build", "release")
    marquee = os.path.join(release, "marquee")
    if not os.path.exists(marquee):
        raise SystemExit("build it first: swift build -c release --product marquee")
    for tool in ["valgrind", "readelf"]:
        if shutil.which(tool) is None:
            raise SystemExit(f"needs {tool} (Debian: apt-get install valgrind binutils)")
    with tempfile.TemporaryDirectory(prefix="marquee-link-order-") as scratch:
        # valgrind cannot read the DWARF 5 the toolchain writes; the symbol table is enough.
        plain = os.path.join(scratch, "marquee")
        subprocess.run(["strip", "--strip-debug", "-o", plain, marquee], check=True)
        seen, listed = set(), []
        for command, action in runs(plain, scratch):
            for name in traced_functions(plain, command, action, scratch):
                if name not in seen and not name.startswith("0x") and " " not in name:
                    seen.add(name)
                    listed.append(name)
    own = sectioned(os.path.join(os.path.realpath(release), "marquee.product", "Objects.LinkFileList"))
    first = [name for name in listed if name in own]
    rest = [name for name in listed if name not in own]
    with open(os.path.join(HERE, "link-order.txt"), "w") as file:
        file.write("\n".join(first + rest) + "\n")
    print(f"link-order.txt: {len(first)} functions in sections of their own, then {len(rest)} in shared sections")


if __name__ == "__main__":
    main()
