"""A load test of `marquee serve` on loopback: mixed reads and writes at a steady rate plus
event streams, for a while, sampling the server's CPU and memory and the sign's frame
lateness as it goes. Python's standard library only.

    python3 Sources/marquee-bench/Load/load_test.py --marquee .build/release/marquee
    python3 Sources/marquee-bench/Load/load_test.py --marquee .build/release/marquee --seconds 30

Requests (at --rate a second, spread over 4 keep-alive connections): 60 % GET /api/state,
20 % GET /api/frame, 5 % GET /api/frame as PBM, 10 % PATCH /api/content, 5 % POST
/api/pause or /api/resume. Every --sample seconds one line: the server's CPU (% of one
core) and resident memory over that interval, and /api/stats' frame lateness. At the end,
a summary line. Traffic goes to 127.0.0.1 only, and the run stops by itself.

With --attack, an adversarial mix runs beside the normal clients, as an outsider on the
same machine could send it: 3 connections pipelining `GET /` without reading the answers
(4 KiB receive buffers), 30 connections that say nothing, re-opened as soon as the server
drops them, 20 event streams that never read, and a request with an oversized body every
50 ms, and every 100 ms a document with numbers at the ends of their ranges or one that
expands (an icon named 4,000 times), which must be answered, and 4 clients asking for
10-second previews (POST /api/preview) back to back, each answered with a GIF or 503 while
another is drawn (asked again 100 ms after a 503; one dropped before its request was read
makes room for the flood of connections, as the budget says). The run then fails unless every
normal request was answered, the server's resident
memory stayed under --rss-limit-kb (default 32768) and the frame loop kept 95 % of its
frames.

    python3 Sources/marquee-bench/Load/load_test.py --marquee .build/release/marquee --seconds 30 --attack
"""
import argparse
import http.client
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import threading
import time


def clock_ticks():
    return os.sysconf(os.sysconf_names["SC_CLK_TCK"])


def cpu_seconds(pid):
    with open("/proc/%d/stat" % pid) as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / clock_ticks()


def rss_kb(pid, field="VmRSS"):
    """Resident memory now (VmRSS), or the most it has been (VmHWM), in KiB."""
    with open("/proc/%d/status" % pid) as file:
        for line in file:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.writes = []
        self.errors = 0
        # What the first errors were, for the failure's line.
        self.reasons = []
        self.statuses = {}
        self.events = 0
        self.attacks = 0

    def add(self, seconds, status, write=False):
        with self.lock:
            self.latencies.append(seconds)
            if write:
                self.writes.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status >= 500 or status == 0:
                self.errors += 1
                self.said("a request answered %d" % status)

    def said(self, reason):
        """Keeps the first few errors' reasons (the caller holds the lock)."""
        if len(self.reasons) < 5:
            self.reasons.append(reason)


def stream(port, stop, counters):
    """Reads /api/events until told to stop, counting events."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/api/events")
    response = connection.getresponse()
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"event: "):
            with counters.lock:
                counters.events += 1
    connection.close()


def reopening(port, stop, counters, hold, receive_buffer=None):
    """Connects and lets `hold(connection)` keep the connection until the server drops it,
    then connects again, until told to stop; counts each connection made."""
    while not stop.is_set():
        connection = socket.socket()
        if receive_buffer:
            connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        connection.settimeout(0.5)
        try:
            connection.connect(("127.0.0.1", port))
            hold(connection)
        except OSError:
            time.sleep(0.05)
        finally:
            connection.close()
        with counters.lock:
            counters.attacks += 1


def pipeliner(port, stop, counters):
    """Sends pipelined GET / as fast as it can and never reads the answers."""
    burst = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port * 1000

    def hold(connection):
        while not stop.is_set():
            try:
                connection.sendall(burst)
            except socket.timeout:
                pass

    reopening(port, stop, counters, hold, receive_buffer=4096)


def silent(port, stop, counters):
    """Holds a connection that says nothing."""

    def hold(connection):
        while not stop.is_set():
            try:
                if connection.recv(4096) == b"":
                    return
            except socket.timeout:
                pass

    reopening(port, stop, counters, hold)


def idle_stream(port, stop, counters):
    """Opens an event stream and never reads it."""

    def hold(connection):
        connection.sendall(b"GET /api/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        watch = select.poll()
        watch.register(connection, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        while not stop.is_set():
            # Never reads: only notices, without taking a byte, that the server let it go.
            if watch.poll(500):
                return

    reopening(port, stop, counters, hold, receive_buffer=4096)


def oversized(port, stop, counters):
    """Every 50 ms, a write whose body is over the limit (refused 413, connection closed)."""
    head = b"PATCH /api/content HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n"
    while not stop.is_set():
        connection = socket.socket()
        connection.settimeout(2)
        try:
            connection.connect(("127.0.0.1", port))
            connection.sendall(head + b"x" * 65536)
            connection.recv(4096)
        except OSError:
            pass
        finally:
            connection.close()
        with counters.lock:
            counters.attacks += 1
        time.sleep(0.05)


EXPANDING = [
    # Numbers at the ends of their ranges: each once ended the server (SIGILL).
    ("POST", "/api/notify", {"messages": ["A long enough message to scroll"], "passes": 100, "speed": 1e-6, "wake": True}),
    ("POST", "/api/notify", {"messages": ["A long enough message to scroll"], "passes": 1, "speed": 1e-300}),
    # One small input that expands: an icon named 4,000 times (44 KB), shown for 0.1 s.
    ("POST", "/api/notify", {"messages": ["{icon:train}" * 4000], "duration": 0.1}),
    # Placeholder topics MQTT does not allow.
    ("POST", "/api/notify", {"messages": ["{mqtt:a\u0001b|-}"], "duration": 0.1}),
]


def expanding(port, stop, counters):
    """Every 100 ms, a document with numbers at the ends of their ranges or one that expands:
    each must be answered (a refusal or 200), never end the server. One dropped before it
    was read (the connection budget making room for the flood) is sent again after 50 ms,
    as a client would, four times at most."""
    index = 0
    while not stop.is_set():
        method, path, body = EXPANDING[index % len(EXPANDING)]
        index += 1
        answered = False
        for attempt in range(5):
            if attempt:
                time.sleep(0.05)
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                connection.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json"})
                answer = connection.getresponse()
                answer.read()
                if answer.status == 408:
                    continue
                answered = True
                if answer.status not in (200, 400, 503):
                    with counters.lock:
                        counters.errors += 1
                        counters.said("%s %s answered %d" % (method, path, answer.status))
                break
            except OSError:
                continue
            finally:
                connection.close()
        if not answered:
            with counters.lock:
                counters.errors += 1
                counters.said("%s %s dropped five times" % (method, path))
        with counters.lock:
            counters.attacks += 1
        time.sleep(0.1)


def previewer(port, stop, counters):
    """Previews back to back, the longest the sign draws: a GIF (200) or busy (503)."""
    body = json.dumps({"messages": ["A draft of the longest kind, drawn ten seconds long"], "mode": "scroll", "speed": 30})
    while not stop.is_set():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("POST", "/api/preview?seconds=10", body=body, headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            data = answer.read()
            if answer.status == 503:
                # Busy drawing another: asked again soon, as the page's button would be.
                stop.wait(0.1)
            # 408: evicted half-sent to make room (the budget), an answer all the same.
            if answer.status not in (200, 408, 503) or (answer.status == 200 and not data.startswith(b"GIF89a")):
                with counters.lock:
                    counters.errors += 1
                    counters.said("a preview answered %d with %r" % (answer.status, data[:80]))
        except OSError:
            # Dropped before its request was read: the connection budget at work against the
            # flood of connections (the silent ones, and these), not a failure to answer.
            pass
        finally:
            connection.close()
        with counters.lock:
            counters.attacks += 1


def worker(port, stop, counters, interval, start, offset):
    """Sends one request every `interval` seconds on a keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    index = 0
    messages = ["Load test %d" % n for n in range(10)]
    while not stop.is_set():
        due = start + offset + index * interval
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        index += 1
        choice = random.random()
        headers, body, method, path = {}, None, "GET", "/api/state"
        if choice < 0.6:
            pass
        elif choice < 0.8:
            path = "/api/frame"
        elif choice < 0.85:
            path, headers = "/api/frame", {"Accept": "image/x-portable-bitmap"}
        elif choice < 0.95:
            method, path = "PATCH", "/api/content"
            body = json.dumps({"messages": [random.choice(messages)], "speed": random.choice([20, 30, 40])})
            headers = {"Content-Type": "application/json"}
        else:
            method, path = "POST", random.choice(["/api/pause", "/api/resume"])
            body, headers = "{}", {"Content-Type": "application/json"}
        began = time.monotonic()
        # A kept-alive connection the server closed while it was idle is opened again and
        # the request sent once more, as browsers and HTTP libraries do.
        for attempt in range(2):
            try:
                connection.request(method, path, body=body, headers=headers)
                response = connection.getresponse()
                response.read()
                counters.add(time.monotonic() - began, response.status, write=method != "GET")
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                if attempt == 1:
                    counters.add(time.monotonic() - began, 0)
            except (OSError, http.client.HTTPException):
                counters.add(time.monotonic() - began, 0)
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                break
    connection.close()


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))] if values else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--marquee", required=True)
    parser.add_argument("--seconds", type=int, default=300)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--streams", type=int, default=10)
    parser.add_argument("--sample", type=int, default=10)
    parser.add_argument("--attack", action="store_true")
    parser.add_argument("--state", action="store_true", help="keep changes in a state file (each write flushed to disk before its answer)")
    parser.add_argument("--rss-limit-kb", type=int, default=32768)
    arguments = parser.parse_args()

    state = None
    if arguments.state:
        import atexit
        import shutil
        import tempfile
        folder = tempfile.mkdtemp(prefix="marquee-load-")
        # The run leaves nothing behind.
        atexit.register(shutil.rmtree, folder, True)
        state = os.path.join(folder, "sign.state")
    server = subprocess.Popen(
        [arguments.marquee, "serve", "--listen", "127.0.0.1:0", "--output", "ascii", "--fps", "40", "--mode", "scroll",
         "--speed", "40"] + (["--state", state] if state else []) + ["A sign under load, scrolling along"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1)
    line = server.stderr.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        print("marquee-load error=serve-did-not-start %s" % line.strip())
        server.kill()
        return 1
    port = int(match.group(1))
    # What the server says after that (warnings, errors) is kept for the end.
    said = []
    threading.Thread(target=lambda: said.extend(server.stderr), daemon=True).start()
    stop = threading.Event()
    counters = Counters()
    threads = [threading.Thread(target=stream, args=(port, stop, counters), daemon=True) for _ in range(arguments.streams)]
    workers = 4
    start = time.monotonic()
    interval = workers / arguments.rate
    threads += [
        threading.Thread(target=worker, args=(port, stop, counters, interval, start, n * interval / workers), daemon=True)
        for n in range(workers)
    ]
    attackers = []
    if arguments.attack:
        attackers += [threading.Thread(target=pipeliner, args=(port, stop, counters), daemon=True) for _ in range(3)]
        attackers += [threading.Thread(target=silent, args=(port, stop, counters), daemon=True) for _ in range(30)]
        attackers += [threading.Thread(target=idle_stream, args=(port, stop, counters), daemon=True) for _ in range(20)]
        attackers += [threading.Thread(target=oversized, args=(port, stop, counters), daemon=True)]
        attackers += [threading.Thread(target=expanding, args=(port, stop, counters), daemon=True)]
        attackers += [threading.Thread(target=previewer, args=(port, stop, counters), daemon=True) for _ in range(4)]
    for thread in threads + attackers:
        thread.start()

    samples = []
    last_cpu, last_time = cpu_seconds(server.pid), time.monotonic()
    end = start + arguments.seconds
    while time.monotonic() < end and server.poll() is None:
        time.sleep(max(0, min(arguments.sample, end - time.monotonic())))
        if server.poll() is not None:
            break
        now, cpu = time.monotonic(), cpu_seconds(server.pid)
        # A new connection the budget made room with before its request was read is opened
        # again, as the normal clients' are (twice at most).
        for attempt in range(3):
            stats_connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                stats_connection.request("GET", "/api/stats")
                stats = json.loads(stats_connection.getresponse().read())
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                if attempt == 2:
                    raise
            finally:
                stats_connection.close()
        sample = {
            "t": round(now - start), "cpu_percent": round(100 * (cpu - last_cpu) / (now - last_time), 2),
            "rss_kb": rss_kb(server.pid), "late_p50_us": stats["lateP50Microseconds"],
            "late_p99_us": stats["lateP99Microseconds"], "late_max_us": stats["lateMaxMicroseconds"],
            "requests": len(counters.latencies), "events": counters.events, "frames": stats["frames"],
        }
        samples.append(sample)
        print("marquee-load " + " ".join("%s=%s" % item for item in sample.items()), flush=True)
        last_cpu, last_time = cpu, now

    # The requests in flight finish before the server is stopped; streams end with it.
    peak = rss_kb(server.pid, "VmHWM") if server.poll() is None else 0
    stop.set()
    for thread in threads[arguments.streams:]:
        thread.join(timeout=15)
    server.send_signal(signal.SIGTERM)
    status = server.wait(timeout=20)
    elapsed = time.monotonic() - start
    rss = [s["rss_kb"] for s in samples]
    summary = {
        "seconds": round(elapsed), "requests": len(counters.latencies),
        "rate": round(len(counters.latencies) / elapsed, 1), "errors": counters.errors,
        "statuses": "/".join("%s:%s" % item for item in sorted(counters.statuses.items())),
        "latency_p50_ms": round(1000 * percentile(counters.latencies, 0.5), 2),
        "latency_p99_ms": round(1000 * percentile(counters.latencies, 0.99), 2),
        "write_p50_ms": round(1000 * percentile(counters.writes, 0.5), 2),
        "write_p99_ms": round(1000 * percentile(counters.writes, 0.99), 2),
        "events": counters.events, "cpu_percent_mean": round(sum(s["cpu_percent"] for s in samples) / max(1, len(samples)), 2),
        "rss_kb_first": rss[0] if rss else 0, "rss_kb_last": rss[-1] if rss else 0, "rss_kb_max": max(rss) if rss else 0, "rss_kb_peak": peak,
        "late_p99_us_max": max((s["late_p99_us"] for s in samples), default=0),
        "exit": status,
    }
    if arguments.attack:
        # Frames over the sampled span, against 40 a second.
        span = samples[-1]["t"] - samples[0]["t"] if len(samples) > 1 else 0
        frames = samples[-1]["frames"] - samples[0]["frames"] if len(samples) > 1 else 0
        summary["attacks"] = counters.attacks
        summary["frame_rate_kept_percent"] = round(100 * frames / (40 * span), 1) if span else 0
        summary["rss_limit_kb"] = arguments.rss_limit_kb
    print("marquee-load summary " + " ".join("%s=%s" % item for item in summary.items()), flush=True)
    for line in said:
        print("marquee-load server-said " + line.rstrip())
    failed = counters.errors != 0 or status != 128 + signal.SIGTERM
    if arguments.attack:
        failed = failed or peak >= arguments.rss_limit_kb or summary["frame_rate_kept_percent"] < 95
    if failed:
        print("marquee-load failed: errors=%d (%s) exit=%s" % (counters.errors, "; ".join(counters.reasons) or "none", status) + (
            " rss_kb_peak=%d (limit %d) frame_rate_kept_percent=%s" % (
                peak, arguments.rss_limit_kb, summary["frame_rate_kept_percent"]) if arguments.attack else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
