"""A virtual kiosk: boots the Debian kernel with scripts/vm/init (or systemd) in QEMU (TCG) and drives it.

x86-64 (qemu-system-x86_64, the default) or arm64 (`arch="arm64"`: qemu-system-aarch64 -M virt,
a Cortex-A72, Debian 12's arm64 Image from scripts/vm/build-initramfs --arch arm64, the PL011
serial port ttyAMA0); the display and tablet are the same PCI devices on both.

The guest serves a shell on its serial port (QEMU's stdio); QMP (a unix socket) takes screenshots
and sends tablet input. Python standard library only.
"""

import itertools
import json
import os
import queue
import re
import socket
import struct
import subprocess
import threading
import time
import zlib

# QEMU's tablet reports absolute axes 0..32767.
TABLET_MAX = 32767


class VMError(Exception):
    pass


class KioskVM:
    """One QEMU guest. `device` is "vga" (-device VGA: bochs-drm; x86-64 only) or "virtio" (virtio-gpu-pci)."""

    # 1 GiB: the initramfs (about 200 MiB with FFmpeg's libraries and the codecs they need, 300 MiB
    # for the systemd guest's Debian root) is held twice while the kernel unpacks it.
    def __init__(self, boot_dir, work_dir, device, width, height, log_path=None, memory_mb=1024,
                 initramfs="initramfs.cpio", outputs=1, kernel_arguments="", tablet_per_head=False,
                 qemu_arguments=(), arch="x86_64"):
        self.arch = arch
        self.device = device
        self.width = width
        self.height = height
        self.work_dir = work_dir
        os.makedirs(work_dir, exist_ok=True)
        self.qmp_path = os.path.join(work_dir, "qmp.sock")
        if os.path.exists(self.qmp_path):
            os.unlink(self.qmp_path)
        display = {
            "vga": f"VGA,xres={width},yres={height},edid=on",
            # Several heads: the id names the device for screendump's head argument.
            "virtio": f"virtio-gpu-pci,xres={width},yres={height},edid=on"
            + (f",id=gpu0,max_outputs={outputs}" if outputs > 1 else ""),
        }[device]
        if arch == "arm64":
            # -M virt: PCI (ECAM) for the same virtio devices as on x86, a PL011 UART; the kernel
            # boots as an Image straight from -kernel, no firmware. KVM is not used (TCG only, as on x86).
            machine = ["qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a72", "-accel", "tcg",
                       "-kernel", os.path.join(boot_dir, "Image")]
            console = "ttyAMA0"
        elif arch == "x86_64":
            machine = ["qemu-system-x86_64", "-accel", "tcg", "-kernel", os.path.join(boot_dir, "vmlinux")]
            console = "ttyS0"
        else:
            raise VMError(f"unknown arch {arch!r} (x86_64 or arm64)")
        command = [
            *machine, "-m", str(memory_mb), "-nodefaults", "-no-reboot",
            "-initrd", os.path.join(boot_dir, initramfs),
            # systemd.show_status=0: the systemd guest's PID 1 keeps its boot messages off the serial shell.
            "-append", f"console={console} quiet loglevel=1 panic=-1 systemd.show_status=0"
            + (" " + kernel_arguments if kernel_arguments else ""),
            "-display", "none", "-serial", "stdio", "-monitor", "none",
            "-qmp", f"unix:{self.qmp_path},server=on,wait=off",
            "-device", display,
            *qemu_arguments,
        ]
        # One tablet, or with `tablet_per_head` one bound to each head (QEMU routes input-send-event's
        # `head` to it), at PCI slots 0x0a, 0x0b, … so the guest can tell them apart in sysfs.
        if tablet_per_head and outputs > 1:
            for head in range(outputs):
                command += ["-device", f"virtio-tablet-pci,display=gpu0,head={head},addr={0x0a + head:#x}"]
        else:
            command += ["-device", "virtio-tablet-pci"]
        self.log = open(log_path or os.path.join(work_dir, "serial.log"), "w")
        self.log.write("$ " + " ".join(command) + "\n")
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.lines = queue.Queue()
        self.reader = threading.Thread(target=self._read_serial, daemon=True)
        self.reader.start()
        self.qmp = None
        self.boot_seconds = None

    def _read_serial(self):
        for raw in self.process.stdout:
            line = raw.decode("utf-8", "replace").rstrip("\r\n").replace("\r", "")
            self.log.write(f"[{time.monotonic() - self.started:7.2f}] {line}\n")
            self.log.flush()
            self.lines.put(line)
        self.lines.put(None)

    def expect(self, pattern, timeout):
        """Waits for a serial line matching `pattern`; returns (match, lines before it)."""
        deadline = time.monotonic() + timeout
        seen = []
        regex = re.compile(pattern)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise VMError(f"timed out after {timeout} s waiting for /{pattern}/; last lines: {seen[-8:]}")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                raise VMError(f"QEMU exited (status {self.process.wait()}) waiting for /{pattern}/; last: {seen[-8:]}")
            match = regex.search(line)
            if match:
                return match, seen
            seen.append(line)

    def boot(self, timeout=90):
        self.expect(r"@@BOOTED", timeout)
        self.boot_seconds = time.monotonic() - self.started
        self._connect_qmp()
        return self.boot_seconds

    def sh(self, command, timeout=60):
        """Runs one shell command line in the guest; returns (exit status, output lines)."""
        # The quotes keep the marker out of the command text itself; a line of its own lets the
        # command end in '&'.
        self.process.stdin.write((command + "\necho @@E''ND $?\n").encode())
        self.process.stdin.flush()
        match, output = self.expect(r"@@END (\d+)", timeout)
        return int(match.group(1)), output

    # MARK: QMP

    def _connect_qmp(self):
        deadline = time.monotonic() + 10
        while True:
            try:
                self.qmp = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.qmp.connect(self.qmp_path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise VMError("cannot connect to QMP at " + self.qmp_path)
                time.sleep(0.1)
        self.qmp_file = self.qmp.makefile("rwb")
        self._qmp_read()  # greeting
        self.qmp_command("qmp_capabilities")

    def _qmp_read(self):
        while True:
            line = self.qmp_file.readline()
            if not line:
                raise VMError("QMP connection closed")
            message = json.loads(line)
            if "event" not in message:
                return message

    def qmp_command(self, name, **arguments):
        request = {"execute": name}
        if arguments:
            request["arguments"] = arguments
        self.qmp_file.write((json.dumps(request) + "\n").encode())
        self.qmp_file.flush()
        reply = self._qmp_read()
        if "error" in reply:
            raise VMError(f"QMP {name}: {reply['error']}")
        return reply.get("return")

    def screendump(self, name, head=None):
        """Takes a screenshot of the display (of virtio-gpu's head `head`); returns an Image."""
        path = os.path.join(self.work_dir, name + ".ppm")
        if head is None:
            self.qmp_command("screendump", filename=path)
        else:
            self.qmp_command("screendump", filename=path, device="gpu0", head=head)
        return read_ppm(path)

    def tap(self, x_value, y_value, head=None):
        """Moves the tablet to (x_value, y_value) in 0..32767 and clicks the left button; with
        `head`, the tablet bound to virtio-gpu's head `head` (see `tablet_per_head`)."""
        target = {} if head is None else {"device": "gpu0", "head": head}
        self.qmp_command("input-send-event", events=[
            {"type": "abs", "data": {"axis": "x", "value": x_value}},
            {"type": "abs", "data": {"axis": "y", "value": y_value}}], **target)
        self.qmp_command("input-send-event", events=[{"type": "btn", "data": {"down": True, "button": "left"}}],
                         **target)
        self.qmp_command("input-send-event", events=[{"type": "btn", "data": {"down": False, "button": "left"}}],
                         **target)

    def close(self):
        try:
            if self.process.poll() is None:
                try:
                    self.process.stdin.write(b"poweroff -f\n")
                    self.process.stdin.flush()
                    self.process.wait(timeout=5)
                except Exception:
                    pass
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()
        finally:
            self.log.close()


# MARK: images

class Image:
    """Packed RGB pixels, 3 bytes each, rows of width*3 bytes."""

    def __init__(self, width, height, rgb):
        assert len(rgb) == width * height * 3, "image data does not match its size"
        self.width = width
        self.height = height
        self.rgb = bytes(rgb)

    def pixel(self, x, y):
        i = (y * self.width + x) * 3
        return tuple(self.rgb[i:i + 3])


def read_ppm(path):
    data = open(path, "rb").read()
    fields = []
    index = 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index) + 1
            continue
        start = index
        while not data[index:index + 1].isspace():
            index += 1
        fields.append(data[start:index])
    index += 1
    if fields[0] != b"P6" or fields[3] != b"255":
        raise VMError(f"{path}: not an 8-bit binary PPM")
    width, height = int(fields[1]), int(fields[2])
    pixels = data[index:]
    # QEMU 7.2 pads rows when the width is not a multiple of 4: strip the padding.
    stride = len(pixels) // height
    if stride != width * 3:
        pixels = b"".join(pixels[y * stride:y * stride + width * 3] for y in range(height))
    return Image(width, height, pixels)


def read_png(data):
    """An 8-bit RGB or RGBA PNG (non-interlaced, as libpng's simplified writer makes them) from its
    bytes; alpha is dropped."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise VMError("not a PNG")
    index = 8
    idat = []
    width = height = channels = None
    while index < len(data):
        length, kind = struct.unpack(">I4s", data[index:index + 8])
        body = data[index + 8:index + 8 + length]
        index += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            channels = {2: 3, 6: 4}.get(colour)
            if depth != 8 or channels is None or interlace:
                raise VMError(f"PNG of depth {depth}, colour type {colour}, interlace {interlace}: not read here")
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    if len(raw) != height * (stride + 1):
        raise VMError(f"PNG data of {len(raw)} bytes for {width}x{height}x{channels}")
    previous = bytearray(stride)
    rows = []
    for y in range(height):
        kind = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if kind == 1:  # Sub: a running sum of each channel
            for c in range(channels):
                row[c::channels] = bytes(v & 255 for v in itertools.accumulate(row[c::channels]))
        elif kind == 2:  # Up
            row = bytearray((a + b) & 255 for a, b in zip(row, previous))
        elif kind == 3:  # Average
            for i in range(stride):
                left = row[i - channels] if i >= channels else 0
                row[i] = (row[i] + ((left + previous[i]) >> 1)) & 255
        elif kind == 4:  # Paeth
            for i in range(stride):
                a = row[i - channels] if i >= channels else 0
                b = previous[i]
                c = previous[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        elif kind != 0:
            raise VMError(f"PNG row {y}: filter {kind}")
        rows.append(bytes(row))
        previous = row
    rgb = b"".join(rows)
    if channels == 4:
        packed = bytearray(width * height * 3)
        packed[0::3], packed[1::3], packed[2::3] = rgb[0::4], rgb[1::4], rgb[2::4]
        rgb = packed
    return Image(width, height, rgb)


def read_raw_xrgb(path, width, height):
    """A `swell render -o FILE.raw` file: B, G, R, X bytes per pixel, packed rows."""
    data = open(path, "rb").read()
    if len(data) != width * height * 4:
        raise VMError(f"{path}: {len(data)} bytes, expected {width}x{height}x4")
    rgb = bytearray(width * height * 3)
    rgb[0::3] = data[2::4]
    rgb[1::3] = data[1::4]
    rgb[2::3] = data[0::4]
    return Image(width, height, rgb)


def centred(image, width, height):
    """`image` centred on a black width x height canvas, cropped where larger (as `swell show` does)."""
    offset_x = (width - image.width) // 2
    offset_y = (height - image.height) // 2
    out = bytearray(width * height * 3)
    x0, x1 = max(0, offset_x), min(width, offset_x + image.width)
    for y in range(height):
        source_y = y - offset_y
        if 0 <= source_y < image.height and x1 > x0:
            src = (source_y * image.width + (x0 - offset_x)) * 3
            out[(y * width + x0) * 3:(y * width + x1) * 3] = image.rgb[src:src + (x1 - x0) * 3]
    return Image(width, height, out)


def rotated_clockwise(image, degrees):
    """The image turned clockwise by 0, 90, 180 or 270 degrees."""
    if degrees == 0:
        return image
    w, h = image.width, image.height
    src = image.rgb
    if degrees == 180:
        pixels = [src[i:i + 3] for i in range(0, len(src), 3)]
        return Image(w, h, b"".join(reversed(pixels)))
    out = bytearray(w * h * 3)
    # New image is h x w. Clockwise 90: new (nx, ny) shows old (ny, h-1-nx).
    for ny in range(w):
        for nx in range(h):
            if degrees == 90:
                ox, oy = ny, h - 1 - nx
            else:  # 270: new (nx, ny) shows old (w-1-ny, nx)
                ox, oy = w - 1 - ny, nx
            s = (oy * w + ox) * 3
            d = (ny * h + nx) * 3
            out[d:d + 3] = src[s:s + 3]
    return Image(h, w, out)


def compare(actual, expected):
    """(differing pixels, largest channel difference); sizes must agree."""
    if (actual.width, actual.height) != (expected.width, expected.height):
        raise VMError(f"size {actual.width}x{actual.height} differs from {expected.width}x{expected.height}")
    if actual.rgb == expected.rgb:
        return 0, 0
    differing = 0
    largest = 0
    a, e = actual.rgb, expected.rgb
    for i in range(0, len(a), 3):
        if a[i:i + 3] != e[i:i + 3]:
            differing += 1
            largest = max(largest, abs(a[i] - e[i]), abs(a[i + 1] - e[i + 1]), abs(a[i + 2] - e[i + 2]))
    return differing, largest


def centroid_of_changes(image, background):
    """The mean position of pixels that differ from `background` (an RGB tuple), and their count."""
    bg = bytes(background)
    total_x = total_y = count = 0
    w = image.width
    rgb = image.rgb
    for y in range(image.height):
        row = rgb[y * w * 3:(y + 1) * w * 3]
        if row == bg * w:
            continue
        for x in range(w):
            if row[x * 3:x * 3 + 3] != bg:
                total_x += x + 0.5
                total_y += y + 0.5
                count += 1
    if count == 0:
        return None, 0
    return (total_x / count, total_y / count), count


def write_png(image, path):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    stride = image.width * 3
    raw = b"".join(b"\x00" + image.rgb[y * stride:(y + 1) * stride] for y in range(image.height))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path + ".tmp", "wb") as f:
        f.write(png)
    os.replace(path + ".tmp", path)
