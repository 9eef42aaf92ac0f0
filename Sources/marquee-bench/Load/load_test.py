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
"""
import argparse
import http.client
import json
import os
import random
import re
import signal
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


def rss_kb(pid):
    with open("/proc/%d/status" % pid) as file:
        for line in file:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.latencies = []
        self.errors = 0
        self.statuses = {}
        self.events = 0

    def add(self, seconds, status):
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1
            if status >= 500 or status == 0:
                self.errors += 1


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
        try:
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            counters.add(time.monotonic() - began, response.status)
        except (OSError, http.client.HTTPException):
            counters.add(time.monotonic() - began, 0)
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
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
    arguments = parser.parse_args()

    server = subprocess.Popen(
        [arguments.marquee, "serve", "--listen", "127.0.0.1:0", "--output", "ascii", "--fps", "40", "--mode", "scroll",
         "--speed", "40", "A sign under load, scrolling along"],
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
    for thread in threads:
        thread.start()

    samples = []
    last_cpu, last_time = cpu_seconds(server.pid), time.monotonic()
    end = start + arguments.seconds
    while time.monotonic() < end and server.poll() is None:
        time.sleep(max(0, min(arguments.sample, end - time.monotonic())))
        if server.poll() is not None:
            break
        now, cpu = time.monotonic(), cpu_seconds(server.pid)
        stats_connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stats_connection.request("GET", "/api/stats")
        stats = json.loads(stats_connection.getresponse().read())
        stats_connection.close()
        sample = {
            "t": round(now - start), "cpu_percent": round(100 * (cpu - last_cpu) / (now - last_time), 2),
            "rss_kb": rss_kb(server.pid), "late_p50_us": stats["lateP50Microseconds"],
            "late_p99_us": stats["lateP99Microseconds"], "late_max_us": stats["lateMaxMicroseconds"],
            "requests": len(counters.latencies), "events": counters.events,
        }
        samples.append(sample)
        print("marquee-load " + " ".join("%s=%s" % item for item in sample.items()), flush=True)
        last_cpu, last_time = cpu, now

    # The requests in flight finish before the server is stopped; streams end with it.
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
        "events": counters.events, "cpu_percent_mean": round(sum(s["cpu_percent"] for s in samples) / max(1, len(samples)), 2),
        "rss_kb_first": rss[0] if rss else 0, "rss_kb_last": rss[-1] if rss else 0, "rss_kb_max": max(rss) if rss else 0,
        "late_p99_us_max": max((s["late_p99_us"] for s in samples), default=0),
        "exit": status,
    }
    print("marquee-load summary " + " ".join("%s=%s" % item for item in summary.items()), flush=True)
    for line in said:
        print("marquee-load server-said " + line.rstrip())
    return 0 if counters.errors == 0 and status == 128 + signal.SIGTERM else 1


if __name__ == "__main__":
    sys.exit(main())
