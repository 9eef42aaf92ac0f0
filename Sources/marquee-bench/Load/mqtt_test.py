"""MQTT figures of `marquee serve --mqtt` on loopback, against Debian's mosquitto (started
here on a free port) with mosquitto_pub publishing. Python's standard library only.

    python3 Sources/marquee-bench/Load/mqtt_test.py --marquee .build/release/marquee

Three measurements, one line each:

- latency: a one-character message published to PREFIX/message, timed from the write to
  mosquitto_pub's input to the frame that shows it as the sign prints it (`--output
  ascii`, each frame as it is shown; recognised by its pixels, rendered beforehand),
  --samples times, p50, p99 and worst, against the frame interval (--fps);
- flood: --rate content updates a second on PREFIX/content for --seconds, with the sign's
  frame lateness (/api/stats) and resident memory before and after;
- reconnect: the broker stopped and started again, timed from its start to the first
  message shown after it.

With --check (as .ci/run runs it) it exits 1 when the flood made the sign late (frame
lateness p99 over one frame interval), grew its resident memory by more than 4 MiB, or
when the sign did not come back after the broker's restart.
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


def free_port():
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    return port


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.01)
    sys.exit("mqtt_test: timed out waiting for " + what)


def rows_of(marquee, text, width):
    out = subprocess.run([marquee, "--output", "ascii", "--frames", "1", "--width", str(width), "--", text],
                         capture_output=True, text=True, check=True).stdout
    return tuple(line for line in out.split("\n") if line)


def resident_kb(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Frames(threading.Thread):
    """Reads the frames the sign prints (`--output ascii`: each frame's rows, then an empty
    line) as it shows them, and keeps each with when it came."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.lock = threading.Lock()
        self.seen = []  # (monotonic time, rows)

    def run(self):
        rows = []
        for raw in self.stream:
            line = raw.decode().rstrip("\n")
            if line:
                rows.append(line)
                continue
            with self.lock:
                self.seen.append((time.monotonic(), tuple(rows)))
                del self.seen[:-20000]
            rows = []

    def shown_after(self, start, rows):
        """When the first frame after `start` showing `rows` came, or None."""
        first = None
        with self.lock:
            for when, seen in reversed(self.seen):
                if when < start:
                    break
                if seen == rows:
                    first = when
        return first


class Lines(threading.Thread):
    """Keeps the sign's standard error drained, noting when it has connected."""

    def __init__(self, stream):
        super().__init__(daemon=True)
        self.stream = stream
        self.connected = threading.Event()

    def run(self):
        for line in self.stream:
            if line.startswith(b"MQTT: connected"):
                self.connected.set()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", default=".build/release/marquee")
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--fps", type=int, default=50)
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--check", action="store_true", help="exit 1 when the flood made the sign late or grew its memory")
    arguments = parser.parse_args()
    failures = []
    folder = tempfile.mkdtemp(prefix="marquee-mqtt-test-")
    broker_port, http_port = free_port(), free_port()
    config = os.path.join(folder, "mosquitto.conf")
    with open(config, "w") as file:
        file.write("listener %d 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 100000\n" % broker_port)
    broker = subprocess.Popen(["mosquitto", "-c", config], stderr=subprocess.DEVNULL)
    time.sleep(0.3)
    sign = subprocess.Popen([arguments.marquee, "serve", "--listen", "127.0.0.1:%d" % http_port, "--output", "ascii",
                             "--width", "32", "--fps", str(arguments.fps), "--mqtt", "mqtt://127.0.0.1:%d" % broker_port,
                             "--mqtt-topic", "bench/sign", "Start"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    publisher = None
    try:
        errors = Lines(sign.stderr)
        errors.start()
        frames = Frames(sign.stdout)
        frames.start()
        wait_for(errors.connected.is_set, 10, "the sign to connect")
        digits = {str(d): rows_of(arguments.marquee, str(d), 32) for d in range(10)}
        publisher = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-t", "bench/sign/message", "-l"],
                                     stdin=subprocess.PIPE)
        time.sleep(0.5)
        latencies = []
        for index in range(arguments.samples):
            digit = str(index % 10)
            start = time.monotonic()
            publisher.stdin.write((digit + "\n").encode())
            publisher.stdin.flush()
            wait_for(lambda: frames.shown_after(start, digits[digit]) is not None, 5, "message %s on the sign" % digit)
            latencies.append((frames.shown_after(start, digits[digit]) - start) * 1000)
            time.sleep(0.03)
        latencies.sort()
        at = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))]
        print("marquee-mqtt latency samples=%d fps=%d frame_ms=%.1f p50_ms=%.2f p99_ms=%.2f max_ms=%.2f"
              % (len(latencies), arguments.fps, 1000 / arguments.fps, at(0.5), at(0.99), latencies[-1]))

        def stats():
            connection = http.client.HTTPConnection("127.0.0.1", http_port, timeout=10)
            connection.request("GET", "/api/stats")
            return json.loads(connection.getresponse().read())

        flood = subprocess.Popen(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-t", "bench/sign/content", "-l", "-q", "0"],
                                 stdin=subprocess.PIPE)
        before_kb, before = resident_kb(sign.pid), stats()
        sent, begin = 0, time.monotonic()
        while time.monotonic() - begin < arguments.seconds:
            due = int((time.monotonic() - begin) * arguments.rate)
            lines = "".join('{"messages": ["Update %d"]}\n' % n for n in range(sent, due))
            flood.stdin.write(lines.encode())
            flood.stdin.flush()
            sent = due
            time.sleep(0.01)
        flood.stdin.close()
        flood.wait()
        time.sleep(1)
        after_kb, after = resident_kb(sign.pid), stats()
        print("marquee-mqtt flood seconds=%d rate=%d sent=%d late_p99_us_before=%.0f late_p99_us_after=%.0f late_max_us_after=%.0f "
              "rss_kb_before=%d rss_kb_after=%d" % (arguments.seconds, arguments.rate, sent, before["lateP99Microseconds"],
                                                    after["lateP99Microseconds"], after["lateMaxMicroseconds"], before_kb, after_kb))
        if after["lateP99Microseconds"] > 1e6 / arguments.fps:
            failures.append("frame lateness p99 %.0f us is over one frame interval" % after["lateP99Microseconds"])
        if after_kb - before_kb > 4096:
            failures.append("resident memory grew by %d KiB under the flood" % (after_kb - before_kb))

        broker.terminate()
        broker.wait()
        time.sleep(1)
        publisher.kill()
        broker = subprocess.Popen(["mosquitto", "-c", config], stderr=subprocess.DEVNULL)
        restarted = time.monotonic()
        shown = None
        while shown is None and time.monotonic() - restarted < 60:
            subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(broker_port), "-t", "bench/sign/message", "-m", "7"],
                           stderr=subprocess.DEVNULL)
            shown = frames.shown_after(restarted, digits["7"])
            time.sleep(0.05)
        print("marquee-mqtt reconnect shown_after_broker_start_ms=%s" % ("%.0f" % ((shown - restarted) * 1000) if shown else "never"))
        if shown is None:
            failures.append("the sign showed nothing within 60 s of the broker's restart")
    finally:
        for process in (publisher, sign, broker):
            if process and process.poll() is None:
                process.terminate()
                process.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
    if arguments.check and failures:
        for failure in failures:
            print("marquee-mqtt check failed: " + failure, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
