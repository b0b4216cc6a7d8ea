"""A `swell run --output memory --api` kiosk as scripts/api/load_test.py and scripts/bench-api
drive it: started with a fresh token, its journal read on a thread, its status and screenshots
fetched over keep-alive connections, its resident memory and CPU time read from /proc.

Only the standard library: http.client, json, zlib (the PNG checks).
"""
import http.client
import math
import json
import os
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
STATUS_MEMBERS = ("version", "cpu", "uptime", "contentFolder", "disk", "temperature", "outputs")
OUTPUT_MEMBERS = ("connector", "mode", "rotation", "shows", "rule", "override", "frames", "frameTime", "power")
FRAME_TIME_MEMBERS = ("frames", "p50", "p99", "max", "overBudget")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def build_swell(root):
    """scripts/build's binary (tuned for this CPU); its path."""
    done = subprocess.run([os.path.join(root, "scripts/build")], check=True, capture_output=True, text=True)
    return os.path.abspath(done.stdout.strip().splitlines()[-1])


def swell_version(swell):
    return subprocess.run([swell, "--version"], capture_output=True, text=True).stdout.strip() or "unknown"


def machine():
    """'AMD EPYC, 2 cores' from /proc/cpuinfo and the CPUs this process may use."""
    name = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")),
                "unknown CPU")
    return f"{name}, {len(os.sched_getaffinity(0))} cores"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Failure(Exception):
    pass


def check_status(status, content_type, body, connector="memory"):
    """The problem with a status answer, or None when it is well-formed."""
    if status != 200:
        return f"status answered {status}: {body[:200]!r}"
    if not (content_type or "").startswith("application/json"):
        return f"status came as {content_type!r}"
    try:
        document = json.loads(body)
    except ValueError as error:
        return f"status is not JSON: {error}"
    missing = [name for name in STATUS_MEMBERS if name not in document]
    if missing:
        return f"status lacks {', '.join(missing)}"
    outputs = document["outputs"]
    if not isinstance(outputs, list) or not outputs:
        return "status has no outputs"
    for output in outputs:
        missing = [name for name in OUTPUT_MEMBERS if name not in output]
        if missing:
            return f"an output lacks {', '.join(missing)}"
        if not isinstance(output["frames"], int):
            return f"frames is {output['frames']!r}"
        frame_time = output["frameTime"]
        if frame_time is not None and any(name not in frame_time for name in FRAME_TIME_MEMBERS):
            return f"frameTime is {frame_time!r}"
    if connector not in [output["connector"] for output in outputs]:
        return f"no output {connector} in status"
    return None


def check_png(status, content_type, body, width=1920, height=1080, inflate=False):
    """The problem with a screenshot answer, or None when it is a whole PNG of the size: the
    signature, an IHDR of width x height, 8-bit RGB, every chunk's length and CRC, IEND last;
    with `inflate`, the pixel data is inflated and must be exactly height rows of width pixels."""
    if status != 200:
        return f"screenshot answered {status}: {body[:200]!r}"
    if content_type != "image/png":
        return f"screenshot came as {content_type!r}"
    if not body.startswith(PNG_SIGNATURE):
        return f"screenshot lacks the PNG signature ({len(body)} bytes: {body[:16]!r})"
    at = len(PNG_SIGNATURE)
    chunks = []
    idat = []
    while at < len(body):
        if at + 12 > len(body):
            return f"screenshot's chunk at {at} is cut off"
        length, kind = struct.unpack(">I4s", body[at:at + 8])
        end = at + 8 + length
        if end + 4 > len(body):
            return f"screenshot's {kind!r} chunk runs past the end"
        (crc,) = struct.unpack(">I", body[end:end + 4])
        if zlib.crc32(body[at + 4:end]) != crc:
            return f"screenshot's {kind!r} chunk has a wrong CRC"
        if not chunks and kind != b"IHDR":
            return f"screenshot's first chunk is {kind!r}"
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[at + 8:at + 18])
            if (w, h, depth, colour) != (width, height, 8, 2):
                return f"screenshot is {w}x{h}, depth {depth}, colour type {colour}; wanted {width}x{height} 8-bit RGB"
        if kind == b"IDAT" and inflate:
            idat.append(body[at + 8:end])
        chunks.append(kind)
        at = end + 4
        if kind == b"IEND":
            break
    if not chunks or chunks[-1] != b"IEND" or at != len(body):
        return f"screenshot does not end with IEND ({len(body) - at} bytes after it)"
    if inflate:
        try:
            pixels = zlib.decompress(b"".join(idat))
        except zlib.error as error:
            return f"screenshot's pixels do not inflate: {error}"
        if len(pixels) != height * (1 + width * 3):
            return f"screenshot's pixels are {len(pixels)} bytes, not {height * (1 + width * 3)}"
    return None


class Client:
    """One keep-alive connection to the kiosk's API; reconnects when the server closed it between
    requests (counted in `reconnects`, not an error)."""

    def __init__(self, port, token, timeout=120):
        self.port = port
        self.headers = {"Authorization": f"Bearer {token}"}
        self.timeout = timeout
        self.connection = None
        self.used = 0
        self.reconnects = 0

    def get(self, path):
        """(HTTP status, Content-Type, body, seconds from sending to the whole body)."""
        for attempt in (0, 1):
            fresh = self.connection is None
            if fresh:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                self.used = 0
            started = time.monotonic()
            try:
                self.connection.request("GET", path, headers=self.headers)
                response = self.connection.getresponse()
                body = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.close()
                # A reused connection the server closed while it was idle: once more on a new one.
                if fresh or attempt:
                    raise
                self.reconnects += 1
                continue
            except Exception:
                self.close()
                raise
            elapsed = time.monotonic() - started
            self.used += 1
            if response.will_close:
                self.close()
            return response.status, response.getheader("Content-Type"), body, elapsed

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


class Kiosk:
    """`swell run SCENE --output memory --api 127.0.0.1:PORT --api-tokens FILE` with a fresh token."""

    def __init__(self, swell, scene, extra=()):
        self.work = tempfile.TemporaryDirectory(prefix="swell-api-")
        tokens = os.path.join(self.work.name, "tokens.json")
        made = subprocess.run([swell, "token", "add", "load", "--tokens", tokens], capture_output=True, text=True)
        if made.returncode != 0:
            raise Failure(f"swell token add failed: {made.stderr.strip()}")
        self.token = made.stdout.strip().splitlines()[-1]
        self.port = free_port()
        self.journal = []
        self.process = subprocess.Popen(
            [swell, "run", scene, "--output", "memory", "--api", f"127.0.0.1:{self.port}", "--api-tokens", tokens,
             *extra], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.pid = self.process.pid
        self.started = threading.Event()
        threading.Thread(target=self._read_journal, daemon=True).start()
        # A start-up guard, not a speed criterion: a kiosk that is not up in a minute is broken.
        if not self.started.wait(60) or self.process.poll() is not None:
            self.stop()
            raise Failure("the kiosk did not start:\n" + "".join(self.journal[-20:]))
        self.control = Client(self.port, self.token)

    def _read_journal(self):
        for line in self.process.stdout:  # the journal; "running" comes on stdout
            self.journal.append(line)
            if "swell: running " in line:
                self.started.set()
        self.started.set()

    def status(self):
        status, content_type, body, _ = self.control.get("/api/v1/status")
        problem = check_status(status, content_type, body)
        if problem:
            raise Failure(problem)
        return json.loads(body)

    def output(self, connector="memory"):
        """The output's status, with the kiosk's "uptime" added."""
        document = self.status()
        return dict(next(o for o in document["outputs"] if o["connector"] == connector), uptime=document["uptime"])

    def rss_kib(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def cpu_seconds(self):
        """The process's user + system CPU time (all its threads)."""
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def stop(self):
        """SIGTERM, then the exit status (None when it had to be killed)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                return None
        self.work.cleanup()
        return self.process.returncode

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            self.stop()


class Sampler:
    """Samples a kiosk's VmRSS (KiB) every `interval` seconds on a thread: (seconds since start, KiB)."""

    def __init__(self, kiosk, interval=1.0):
        self.kiosk = kiosk
        self.interval = interval
        self.samples = []
        self.done = threading.Event()
        self.start = time.monotonic()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self):
        while not self.done.is_set():
            try:
                self.samples.append((time.monotonic() - self.start, self.kiosk.rss_kib()))
            except OSError:
                return
            self.done.wait(self.interval)

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.samples


def percentile(values, p):
    """The p-th percentile (0..1) as the status computes it: the smallest value with at least p of them at or below."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p * len(ordered)) - 1))]
