"""The virtual-kiosk test suite: swell on a real kernel's DRM and fbdev drivers in QEMU.

Usage: kiosk_tests.py BOOT_DIR HOST_SWELL WORK_DIR [--arch x86_64|arm64] [--only NAME_SUBSTRING]
Prints one PASS/FAIL line per case and "N passed, M failed"; exits 1 when any case failed.
--arch arm64 (BOOT_DIR from scripts/vm/build-initramfs --arch arm64) runs the arm64 cases instead:
one aarch64 guest on virtio-gpu at 1280x800 (DRM, SIGTERM restore, fbdev, text, touch, ripples, an
FFmpeg video) and the systemd guest; their names start with "arm64-". HOST_SWELL is what renders
the references: any swell that runs here (for arm64, scripts/test-kiosk passes the same aarch64
binary under qemu-aarch64-static).
"""

import base64
import hashlib
import http.client
import json
import os
import re
import socket
import ssl
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_vm import (KioskVM, VMError, TABLET_MAX, Image, centred, centroid_of_changes, compare,  # noqa: E402
                      read_png, read_ppm, read_raw_xrgb, rotated_clockwise, write_png)

boot_dir, host_swell, work_dir = sys.argv[1:4]
only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else None
arch = sys.argv[sys.argv.index("--arch") + 1] if "--arch" in sys.argv else "x86_64"
if arch == "aarch64":
    arch = "arm64"
# TCG emulating aarch64 boots the Debian kernel in ~7 s here, but give a loaded machine room.
boot_timeout = 240 if arch == "arm64" else 90
bench_data = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench-data")
os.makedirs(work_dir, exist_ok=True)

results = []
timings = []


def report(name, passed, detail):
    results.append(passed)
    print(f"{'PASS' if passed else 'FAIL'} {name}: {detail}", flush=True)


def host_render(list_path, name):
    """`swell render` on the host: the memory sink's picture of a draw list."""
    out = os.path.join(work_dir, name + ".raw")
    subprocess.run([host_swell, "render", list_path, "-o", out], check=True)
    with open(list_path) as f:
        frame = json.load(f)
    return read_raw_xrgb(out, frame["width"], frame["height"])


waves = host_render(os.path.join(bench_data, "waves.json"), "waves-reference")


def matching_screendump(vm, name, expected, attempts=10):
    """Screenshots until one matches `expected` exactly (virtio's fbdev emulation reaches the
    screen a little after msync returns; see docs/kiosk.md). Returns (image, attempts used, diff)."""
    for attempt in range(1, attempts + 1):
        shot = vm.screendump(f"{name}-{attempt}")
        differing, largest = compare(shot, expected)
        if differing == 0:
            return shot, attempt, (0, 0)
        time.sleep(0.1)
    write_png(shot, os.path.join(work_dir, name + "-actual.png"))
    write_png(expected, os.path.join(work_dir, name + "-expected.png"))
    return shot, attempts, (differing, largest)


def crtc_state(vm):
    """(crtc, fb, mode) of the connected connector from `swell displays` in the guest."""
    status, lines = vm.sh("swell displays")
    for line in lines:
        match = re.search(r"^\s+(\S+) connected crtc=(\d+) fb=(\d+) mode=(\S+)", line)
        if match:
            return match.group(1), int(match.group(2)), int(match.group(3)), match.group(4)
        match = re.search(r"^\s+(\S+) connected", line)
        if match:
            return match.group(1), None, 0, "off"  # connected, but no CRTC drives it: the display is off
    raise VMError("swell displays shows no connected connector: " + " | ".join(lines))


def crtc_states(vm):
    """{connector: (crtc, fb, mode)} of every connected connector driven by a CRTC, from `swell
    displays` in the guest."""
    status, lines = vm.sh("swell displays")
    states = {}
    for line in lines:
        match = re.search(r"^\s+(\S+) connected crtc=(\d+) fb=(\d+) mode=(\S+)", line)
        if match:
            states[match.group(1)] = (int(match.group(2)), int(match.group(3)), match.group(4))
    return states


def start(vm, command, log, ready, timeout_tenths=900):
    """Starts `command` in the background in the guest and waits for `ready` in its output."""
    status, lines = vm.sh(
        f"{command} >{log} 2>&1 & echo $! >{log}.pid; waitfor {log} '{ready}' {timeout_tenths}; "
        f"r=$?; cat {log}; (exit $r)", timeout=timeout_tenths / 10 + 30)
    if status != 0:
        raise VMError(f"'{command}' did not print '{ready}': " + " | ".join(lines))
    return lines


def stop(vm, log, signal="TERM"):
    """A signal (SIGTERM) to the program started with `start`; returns (exit status, its whole output)."""
    status, lines = vm.sh(f"kill -{signal} $(cat {log}.pid); wait $(cat {log}.pid); echo status=$?; cat {log}")
    exit_status = next((int(l.split("=")[1]) for l in lines if l.startswith("status=")), None)
    return exit_status, lines


# The virtual display's connector in sysfs: its forced status (unplug / plug in) and its DPMS state;
# and the change uevent a DRM driver sends on hotplug, synthesised through the card's uevent file.
CONNECTOR_STATUS = "/sys/class/drm/card0-Virtual-1/status"
CONNECTOR_DPMS = "/sys/class/drm/card0-Virtual-1/dpms"
HOTPLUG_UEVENT = 'echo "change $(cat /proc/sys/kernel/random/uuid) HOTPLUG=1" >/sys/class/drm/card0/uevent'


def wait_for_colour(vm, colours, seen, name, label):
    """Takes screenshots until the whole screen is the colour `colours[name]` (True), for at most a
    minute (TCG: scaling a picture to 1080p takes a second or two here). Each screenshot's colour
    name, or "mixed", is appended to `seen`."""
    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        shot = vm.screendump(f"{label}-{len(seen)}")
        pixels = shot.width * shot.height
        seen.append(next((n for n, c in colours.items() if shot.rgb == bytes(c) * pixels), "mixed"))
        if seen[-1] == name:
            return True
        time.sleep(0.3)
    return False


def runs(names):
    """Screenshots' names with repeats counted: 'a×4 mixed e×3'."""
    out = []
    for name in names:
        if out and out[-1][0] == name:
            out[-1][1] += 1
        else:
            out.append([name, 1])
    return " ".join(f"{n}×{c}" if c > 1 else n for n, c in out)


def slide_colours(names):
    """The colour of each one-colour slide picture (slide-a.png …), from the host's render of its list."""
    return {name: host_render(os.path.join(boot_dir, f"slide-{name}.json"), f"slide-{name}").pixel(0, 0)
            for name in names}


def slideshow_scene(folder, interval, transition):
    """A scene file's text: the slideshow of `folder`."""
    return (f'{{"scene": "slideshow", "parameters": {{"folder": "{folder}", "interval": {interval}, '
            f'"transition": {transition}}}}}')


def boot_guest(tag, device, width, height, initramfs="initramfs.cpio", memory_mb=1024, qemu_arguments=()):
    """A booted virtual kiosk, its boot time recorded; None (the failure reported) if it did not boot."""
    vm = KioskVM(boot_dir, os.path.join(work_dir, tag), device, width, height, initramfs=initramfs, arch=arch,
                 memory_mb=memory_mb, qemu_arguments=qemu_arguments)
    try:
        timings.append((f"{tag} boot", vm.boot(timeout=boot_timeout)))
    except VMError as error:
        report(f"{tag} boot", False, str(error))
        vm.close()
        return None
    return vm


def run_case(name, body):
    if only and only not in name:
        return
    started = time.monotonic()
    try:
        passed, detail = body()
    except (VMError, subprocess.CalledProcessError, OSError) as error:
        passed, detail = False, str(error)
    timings.append((name, time.monotonic() - started))
    report(name, passed, detail + f" [{time.monotonic() - started:.1f} s]")


def suite_for(device, width, height, extra, stop_signal, core=("drm-show", "drm-restore", "fbdev-show", "pacing", "touch")):
    """One guest's cases: `core` (of those five, in that order), then `extra` in its order."""
    tag = f"{device}-{width}x{height}" if arch == "x86_64" else f"{arch}-{device}-{width}x{height}"
    if only and not any(only in f"{tag} {case}" for case in ["drm-show", "drm-restore", "fbdev-show", "touch",
                                                               "rotate", "pacing", "hotplug", "error", "png", "vfb",
                                                               "run", "bench", "slideshow", "picture replaced", "display", "screen",
                                                               "systemd", "calibrate", "followed", "damage", "text-show", "wave-button", "ripple",
                                                               "video", "schedule"]):
        return
    vm = boot_guest(tag, device, width, height)
    if vm is None:
        return
    driver = {"vga": "bochs-drm", "virtio": "virtio_gpu"}[device]
    expected_show = centred(waves, width, height)
    state = {}

    def drm_show():
        state["before"] = crtc_state(vm)
        state["console"] = vm.screendump("console-before")
        # One boot takes the default --output auto, which must pick DRM.
        output = "auto" if (device, width) == ("vga", 1280) else "drm"
        lines = start(vm, f"swell show /data/waves.json --output {output}", "/tmp/show.log", "swell: showing")
        line = next(l for l in lines if "swell: showing" in l)
        want = f"swell: showing waves.json on card0 {state['before'][0]} {width}x{height}@"
        if want not in line or not line.endswith("(drm)"):
            return False, f"unexpected line '{line}'"
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-drm-show", expected_show)
        state["shown"] = shot
        if differing:
            return False, f"screenshot differs from swell render in {differing} pixels (max {largest}/255)"
        return True, f"--output {output}: '{line}'; screendump == swell render (centred) exactly, attempt {attempts}"

    def drm_restore():
        if "shown" not in state:
            return False, "needs the drm-show case"
        # A second open fd keeps the kernel from restoring fbcon by itself when swell closes its fd,
        # as logind/seatd do on a real kiosk: only swell's own restore can bring the console back.
        vm.sh("sleep 100000 3<>/dev/dri/card0 & echo $! >/tmp/holder.pid")
        during = crtc_state(vm)
        exit_status, lines = stop(vm, "/tmp/show.log", stop_signal)
        after = crtc_state(vm)
        shot = vm.screendump(f"{tag}-after-stop")
        vm.sh("kill $(cat /tmp/holder.pid)")
        before = state["before"]
        problems = []
        fatal = stop_signal == "SEGV"
        # A fatal signal ends the process as it would have (128 + 11); the handler only restores.
        if exit_status != (139 if fatal else 0):
            problems.append(f"exit status {exit_status}")
        if not fatal and not any(f"stopped by SIG{stop_signal}; display restored" in l for l in lines):
            problems.append(f"no 'stopped by SIG{stop_signal}' line")
        if during[2] == before[2]:
            problems.append(f"fb did not change while showing ({during[2]})")
        if after[1:] != before[1:]:
            problems.append(f"after stop (crtc, fb, mode) = {after[1:]}, before = {before[1:]}"
                            + (" (display left off)" if after[1] is None else ""))
        back_to_console, _ = compare(shot, state["console"])
        # The console's blinking cursor (one 8x16 cell) may differ between the two screenshots.
        if back_to_console > 8 * 16:
            problems.append(f"screen after stop differs from the console in {back_to_console} pixels")
        if problems:
            return False, "; ".join(problems)
        return True, (f"SIG{stop_signal} → exit {exit_status}; with a second fd held, CRTC {after[1]} back on console fb {after[2]} "
                      f"mode {after[3]} (was fb {during[2]} while showing); screen == console "
                      f"({back_to_console} px differ: cursor)")

    def fbdev_show():
        lines = start(vm, "swell show /data/waves.json --output fbdev", "/tmp/fb.log", "swell: showing")
        line = next(l for l in lines if "swell: showing" in l)
        if f"{width}x{height}" not in line or not line.endswith("(fbdev)"):
            return False, f"unexpected line '{line}'"
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-fbdev-show", expected_show)
        # fbcon's cursor blinks about every 200 ms over an fbdev picture unless the VT is in
        # KD_GRAPHICS: later screenshots must still match.
        later = []
        for index in range(3):
            time.sleep(0.25)
            later.append(compare(vm.screendump(f"{tag}-fbdev-later-{index}"), expected_show)[0])
        exit_status, _ = stop(vm, "/tmp/fb.log")
        if differing:
            return False, f"screenshot differs from swell render in {differing} pixels (max {largest}/255)"
        if any(later):
            return False, f"later screenshots differ in {later} pixels (the console cursor?)"
        if exit_status != 0:
            return False, f"exit status {exit_status} after SIGTERM"
        return True, (f"'{line}'; screendump == swell render exactly (attempt {attempts}), and 3 more over 0.75 s "
                      "(no console cursor: KD_GRAPHICS); SIGTERM → exit 0")

    def touch(rotation=0):
        def body():
            rotate = f" --rotate {rotation}" if rotation else ""
            lines = start(vm, f"swell touch-test --output drm{rotate}", "/tmp/touch.log", "swell: touch-test on")
            ready = next(l for l in lines if "touch-test on" in l)
            if "/dev/input/event" not in ready:
                return False, f"no input device found: '{ready}'"
            # Tap at about (30 %, 60 %) of the panel.
            vx, vy = round(0.3 * TABLET_MAX), round(0.6 * TABLET_MAX)
            panel_x, panel_y = vx * width / (TABLET_MAX + 1), vy * height / (TABLET_MAX + 1)
            logical_w, logical_h = (height, width) if rotation in (90, 270) else (width, height)
            expect_x, expect_y = {0: (panel_x, panel_y), 90: (panel_y, logical_h - panel_x),
                                  180: (logical_w - panel_x, logical_h - panel_y),
                                  270: (logical_w - panel_y, panel_x)}[rotation]
            vm.tap(vx, vy)
            status, lines = vm.sh("waitfor /tmp/touch.log 'touch ended' 300; r=$?; cat /tmp/touch.log; (exit $r)")
            began = next((l for l in lines if l.startswith("touch began")), None)
            if status != 0 or began is None:
                return False, "no touch reached the program: " + " | ".join(lines[-5:])
            match = re.search(r"id=(\d+) x=(-?[\d.]+) y=(-?[\d.]+)", began)
            got_x, got_y = float(match.group(2)), float(match.group(3))
            if abs(got_x - expect_x) > 0.051 or abs(got_y - expect_y) > 0.051:
                return False, f"'{began}' but expected x={expect_x:.2f} y={expect_y:.2f}"
            # The reference: the memory presenter's scan-out after the same tap (same rotation).
            reference = os.path.join(work_dir, f"{tag}-touch-{rotation}.raw")
            subprocess.run([host_swell, "touch-test", "--output", "memory", "--size", f"{width}x{height}",
                            "--rotate", str(rotation), "--tap", f"{expect_x!r},{expect_y!r}", "--save", reference],
                           check=True, stdout=subprocess.DEVNULL)
            expected = read_raw_xrgb(reference, width, height)
            shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-touch-{rotation}", expected)
            exit_status, _ = stop(vm, "/tmp/touch.log")
            if differing:
                return False, f"screenshot differs from the memory presenter's in {differing} px (max {largest})"
            centre, count = centroid_of_changes(rotated_clockwise(shot, (360 - rotation) % 360), (255, 255, 255))
            if count == 0:
                return False, "no touch mark drawn (the screen is all white)"
            # The crosshair marks the pixel the tap fell in, so its centre is within half a pixel.
            if abs(centre[0] - expect_x) > 1 or abs(centre[1] - expect_y) > 1:
                return False, f"ring centred at ({centre[0]:.2f}, {centre[1]:.2f}), tap at ({expect_x}, {expect_y})"
            return True, (f"tablet tap ({vx}, {vy}) → '{began}' (expected {expect_x:.2f}, {expect_y:.2f}); "
                          f"marks ({count} px) centred at ({centre[0]:.2f}, {centre[1]:.2f}); screendump == "
                          f"memory presenter's picture of the same tap exactly; exit {exit_status}")
        return body

    def touch_calibrate(rotation):
        def body():
            """A touch overlay that disagrees with its panel — mirrored left to right, its sensor 10 %
            taller than the picture — simulated by tapping the tablet where such an overlay would
            report a finger on each cross: `swell touch-test --calibrate` shows each cross where it
            says (screenshot), prints the matrix that undoes the overlay (libinput's form), and the
            next tap, calibrated with it, lands under the finger."""
            overlay = (-1.0, 0.0, 1.0, 0.0, 1.1, -0.05)  # panel = M·device, normalised
            logical_w, logical_h = (height, width) if rotation in (90, 270) else (width, height)

            def panel_of(px, py):
                """A picture point's normalised panel position (the inverse of --rotate)."""
                x, y = {0: (px, py), 90: (width - py, px), 180: (width - px, height - py),
                        270: (py, height - px)}[rotation]
                return x / width, y / height

            def device_tap(px, py):
                """Taps where the overlay reports a finger on picture point (px, py)."""
                a, b, c, d, e, f = overlay
                x, y = panel_of(px, py)
                det = a * e - b * d
                dx, dy = (e * (x - c) - b * (y - f)) / det, (-d * (x - c) + a * (y - f)) / det
                vm.tap(round(dx * (TABLET_MAX + 1)), round(dy * (TABLET_MAX + 1)))

            lines = start(vm, f"swell touch-test --output drm --rotate {rotation} --calibrate", "/tmp/cal.log",
                          "cross 1 of 4")
            prompts = []
            for n in range(1, 5):
                prompt = next(l for l in reversed(lines) if f"cross {n} of 4" in l)
                match = re.search(r"at x=(\d+) y=(\d+)", prompt)
                tx, ty = int(match.group(1)), int(match.group(2))
                if (tx, ty) != ({1: 1, 2: 7, 3: 7, 4: 1}[n] * logical_w // 8, {1: 1, 2: 1, 3: 7, 4: 7}[n] * logical_h // 8):
                    stop(vm, "/tmp/cal.log")
                    return False, f"'{prompt}': not an eighth in from the edges of a {logical_w}x{logical_h} picture"
                if n == 1:
                    shot = vm.screendump(f"{tag}-calibrate-cross")
                    centre, count = centroid_of_changes(rotated_clockwise(shot, (360 - rotation) % 360), (255, 255, 255))
                    if count == 0 or abs(centre[0] - tx) > 1 or abs(centre[1] - ty) > 1:
                        stop(vm, "/tmp/cal.log")
                        return False, f"cross 1 drawn at {centre} ({count} px), not at ({tx}, {ty})"
                prompts.append(prompt)
                device_tap(tx, ty)
                wanted = f"cross {n + 1} of 4" if n < 4 else "touch matrix"
                status, lines = vm.sh(f"waitfor /tmp/cal.log '{wanted}' 300; r=$?; cat /tmp/cal.log; (exit $r)")
                if status != 0:
                    stop(vm, "/tmp/cal.log")
                    return False, f"no '{wanted}' after tapping cross {n}: " + " | ".join(lines[-4:])
            result = next(l for l in lines if "touch matrix" in l)
            matrix = [float(v) for v in re.search(r"--touch-matrix (\S+)", result).group(1).split(",")]
            if any(abs(got - want) > 0.002 for got, want in zip(matrix, overlay)):
                stop(vm, "/tmp/cal.log")
                return False, f"'{result}': expected {overlay}"
            # A check tap, calibrated now: where the finger is, at (30 %, 60 %) of the picture.
            check_x, check_y = 0.3 * logical_w, 0.6 * logical_h
            device_tap(check_x, check_y)
            status, lines = vm.sh("waitfor /tmp/cal.log 'touch ended' 300; sleep 0.2; cat /tmp/cal.log")
            began = [l for l in lines if l.startswith("touch began")][-1]
            match = re.search(r"x=(-?[\d.]+) y=(-?[\d.]+)", began)
            got_x, got_y = float(match.group(1)), float(match.group(2))
            exit_status, _ = stop(vm, "/tmp/cal.log")
            if abs(got_x - check_x) > 1 or abs(got_y - check_y) > 1 or exit_status != 0:
                return False, f"after calibrating, '{began}' for a finger at ({check_x:.1f}, {check_y:.1f}); exit {exit_status}"
            return True, (f"crosses at the eighths (cross 1 on screen where announced); '{result.split('swell: ')[-1]}'; "
                          f"a finger at ({check_x:.1f}, {check_y:.1f}) → '{began}'; exit 0")
        return body

    def redraw(output):
        def body():
            lines = start(vm, f"swell show /data/waves.json --output {output} --redraw", "/tmp/redraw.log",
                          "swell: showing")
            line = next(l for l in lines if "swell: showing" in l)
            refresh = int(re.search(r"@(\d+) ", line).group(1))
            time.sleep(1.5)
            shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-{output}-redraw", expected_show)
            exit_status, lines = stop(vm, "/tmp/redraw.log")
            rate_line = next((l for l in lines if "frames/s" in l), None)
            if rate_line is None or exit_status != 0:
                return False, f"exit status {exit_status}, no frame-rate line: " + " | ".join(lines[-4:])
            frames, rate = (int(v) for v in re.search(r"(\d+) frames, (\d+) frames/s", rate_line).groups())
            if differing:
                return False, f"screenshot while flipping differs in {differing} pixels (max {largest})"
            # Never faster than the display refreshes (no spinning); slower is allowed under TCG.
            if rate > refresh * 1.05 or frames < 10:
                return False, f"'{rate_line}' for a {refresh} Hz mode"
            if output == "drm" and "page flips" not in rate_line:
                return False, f"no page flips: '{rate_line}'"
            # virtio-gpu needs DirtyFB; bochs answers it with ENOSYS, after which it is not called.
            if output == "drm" and ("DirtyFB" in rate_line) != (device == "virtio"):
                return False, f"DirtyFB use does not fit {driver}: '{rate_line}'"
            return True, f"'{rate_line}' ({refresh} Hz mode); screendump while presenting == swell render"
        return body

    def hotplug():
        lines = start(vm, "swell touch-test --output drm", "/tmp/hot.log", "swell: touch-test on")
        vm.qmp_command("device_add", driver="virtio-tablet-pci", id="hotplugged")
        status, lines = vm.sh("waitfor /tmp/hot.log 'input added' 200; r=$?; cat /tmp/hot.log; (exit $r)")
        added = next((l for l in lines if l.startswith("input added")), None)
        if status != 0 or added is None:
            return False, "the plugged-in tablet was not picked up: " + " | ".join(lines[-3:])
        node = added.split()[2]
        # A second reader of the new node shows which tablet QEMU routed the tap through.
        vm.sh(f"dd if={node} of=/tmp/hot.events bs=24 2>/dev/null & echo $! >/tmp/hot.cat; sleep 0.3")
        vm.tap(8192, 8192)
        status, lines = vm.sh("waitfor /tmp/hot.log 'touch ended' 200; r=$?; wc -c </tmp/hot.events; "
                              "kill $(cat /tmp/hot.cat); (exit $r)")
        if status != 0 or int(lines[-1]) == 0:
            return False, "no touch through the plugged-in tablet: " + " | ".join(lines[-3:])
        vm.qmp_command("device_del", id="hotplugged")
        status, lines = vm.sh("waitfor /tmp/hot.log 'input removed' 200; r=$?; cat /tmp/hot.log; (exit $r)")
        removed = next((l for l in lines if l.startswith("input removed")), None)
        if status != 0 or removed is None or node not in removed:
            return False, "unplugging was not noticed: " + " | ".join(lines[-3:])
        vm.tap(24576, 24576)
        status, lines = vm.sh("waitfor /tmp/hot.log 'x=960.0 y=600.0' 200; r=$?; cat /tmp/hot.log; (exit $r)")
        if status != 0:
            return False, "no touch through the remaining tablet after unplugging: " + " | ".join(lines[-3:])
        exit_status, lines = stop(vm, "/tmp/hot.log")
        if exit_status != 0:
            return False, f"exit status {exit_status} after SIGTERM"
        return True, f"'{added}', tap through it → touch; '{removed}'; next tap via event1 → touch; exit 0"

    def errors():
        """Each failure exits with its status and a message naming the device and the fix."""
        checks = [
            ("swell show /data/waves.json --output drm --mode 1234x567", 78,
             ["/dev/dri/card0", "does not offer 1234x567", f"{width}x{height}@"]),
            ("swell show /data/waves.json --output drm --connector HDMI-A-9", 69,
             ["no connector named HDMI-A-9", "Virtual-1 (connected)"]),
            ("swell show /data/waves.json --output drm --device /dev/dri/card7", 69, ["/dev/dri/card7"]),
            ("swell show /data/waves.json --output fbdev --device /dev/fb5", 69, ["/dev/fb5"]),
            # A non-root user outside the video group.
            ("su kiosk -c 'swell show /data/waves.json --output drm'", 77, ["/dev/dri/card0", "'video' group"]),
            # A kiosk file naming a connector the card lacks: --check reads the card's connectors
            # from sysfs (64), a run opens the card (69); both list them.
            ("swell run --kiosk /tmp/hdmi9.json --check", 64,
             ["card0 has no connector named HDMI-A-9", "Virtual-1 (connected)"]),
            ("swell run --kiosk /tmp/hdmi9.json --seconds 1", 69,
             ["no connector named HDMI-A-9", "Virtual-1 (connected)"]),
        ]
        vm.sh("""echo '{"format": "kiosk/1", "outputs": [{"connector": "HDMI-A-9", "content": "ripples"}]}' """
              ">/tmp/hdmi9.json")
        problems = []
        vm.sh("mkdir -p /etc; echo 'kiosk:x:1000:1000::/tmp:/bin/sh' >>/etc/passwd; echo 'kiosk:x:1000:' >>/etc/group; "
              "chmod 660 /dev/dri/card0 /dev/fb0")
        for command, want_status, fragments in checks:
            status, lines = vm.sh(command + " 2>&1")
            text = " ".join(lines)
            if status != want_status or not all(f in text for f in fragments):
                problems.append(f"'{command}' → {status} '{text[:200]}'")
        # Another DRM master holds the card: the second program must say so (exit 75).
        start(vm, "swell show /data/waves.json --output drm", "/tmp/first.log", "swell: showing")
        status, lines = vm.sh("swell show /data/waves.json --output drm 2>&1")
        stop(vm, "/tmp/first.log")
        if status != 75 or "another DRM master" not in " ".join(lines):
            problems.append(f"second master → {status} '{' '.join(lines)[:200]}'")
        if problems:
            return False, "; ".join(problems)
        return True, (f"{len(checks) + 1} failures (mode not offered → 78 listing the modes, unknown connector, "
                      "missing card/fb → 69, no permission → 77 naming the video group, a kiosk file's unknown "
                      "connector → 64 checked, 69 run, second DRM master → 75)")

    def png_show():
        lines = start(vm, "swell show /data/ripples-60.png --output drm", "/tmp/png.log", "swell: showing")
        line = next(l for l in lines if "swell: showing" in l)
        expected = centred(host_render(os.path.join(bench_data, "ripples-60.json"), "ripples-60"), width, height)
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-png-show", expected)
        exit_status, _ = stop(vm, "/tmp/png.log")
        if differing:
            return False, f"screenshot differs from the PNG's source render in {differing} pixels (max {largest})"
        return True, f"'{line}'; screendump == swell render of ripples-60.json (the PNG's source); exit {exit_status}"

    def text_show():
        # Text through the real DRM display: text-page.json's 71 text ops (DejaVu, from the
        # initramfs's /usr/share/fonts) shaped and rasterised in the guest, against the host's render.
        lines = start(vm, "swell show /data/text-page.json --output drm", "/tmp/text.log", "swell: showing")
        line = next(l for l in lines if "swell: showing" in l)
        expected = centred(host_render(os.path.join(bench_data, "text-page.json"), "text-page"), width, height)
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-text-show", expected)
        exit_status, _ = stop(vm, "/tmp/text.log")
        if differing:
            return False, f"screenshot differs from swell render of text-page.json in {differing} pixels (max {largest})"
        return True, f"'{line}'; screendump == swell render of text-page.json exactly; exit {exit_status}"

    def video_show():
        """A page with a video through DRM: examples/video/waves.mp4 decoded by FFmpeg's libraries in
        the guest, placed in a frame over the page's background beside a text, played once. Its
        last picture stays, so the screendump at any time after the end equals the host's
        `swell dump` of the page at 10 s, exactly; the run counts the pictures shown and dropped."""
        page = ('{"background": "#FFF8F0", "layers": ['
                '{"scene": "video", "frame": {"x": 40, "y": 60, "width": 640, "height": 360}, '
                '"parameters": {"file": "video/waves.mp4", "loop": false, "scale": "fit"}}, '
                '{"scene": "text", "frame": {"x": 720, "y": 60, "width": 500, "height": 200}, '
                '"parameters": {"text": "Fresh today", "size": 64, "color": "#FF3B30"}}]}')
        host_page = os.path.join(work_dir, "video-page.json")
        with open(host_page, "w") as f:
            f.write(page)
        os.makedirs(os.path.join(work_dir, "video"), exist_ok=True)
        subprocess.run(["cp", os.path.join(bench_data, "..", "examples", "video", "waves.mp4"),
                        os.path.join(work_dir, "video", "waves.mp4")], check=True)
        dump = os.path.join(work_dir, "video-dump")
        subprocess.run([host_swell, "dump", host_page, "--size", f"{width}x{height}", "--fps", "1", "--frames",
                        "10..10", "-o", dump], check=True, stdout=subprocess.DEVNULL)
        expected = read_raw_xrgb(os.path.join(dump, "frame-000010.raw"), width, height)
        vm.sh(f"echo '{page}' >/data/video-page.json")
        lines = start(vm, "swell run /data/video-page.json --output drm", "/tmp/video.log", "swell: running")
        ready = next(l for l in lines if "swell: running" in l)
        time.sleep(6.0)  # the clip's 4 s, by the guest's clock, and its last picture drawn
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-video-show", expected, attempts=40)
        exit_status, lines = stop(vm, "/tmp/video.log")
        counts = next((l for l in lines if "video waves.mp4:" in l), "")
        match = re.search(r"(\d+) pictures shown, (\d+) dropped", counts)
        if differing:
            return False, f"screenshot differs from swell dump at 10 s in {differing} pixels (max {largest}/255)"
        if not match or int(match.group(1)) < 2 or exit_status != 0:
            return False, f"no picture count or a failure (exit {exit_status}): " + " | ".join(lines[-4:])
        return True, (f"'{ready}'; the last picture held: screendump == swell dump at 10 s exactly, attempt "
                      f"{attempts}; '{counts.strip()}'; exit {exit_status}")

    def schedule_boundary():
        """The café example's kiosk file (examples/cafe/kiosk.json, its schedule in Europe/Berlin) on
        the guest's clock: at 06:00 on a Monday the night rule has the screen off; the clock set to
        10:59:40 (as NTP steps it) wakes the kiosk at once, screen on, breakfast menu; after 11:00
        the lunch menu. Each picture equals the host's `swell dump --at` of that time above the
        flowing wave (which moves on); the same process takes the change up at 11:00 and says so."""
        def reference(at, name):
            dump = os.path.join(work_dir, name)
            subprocess.run([host_swell, "dump", os.path.join(bench_data, "..", "examples", "cafe", "kiosk.json"),
                            "--at", at, "--size", f"{width}x{height}", "--frames", "0", "-o", dump],
                           check=True, stdout=subprocess.DEVNULL)
            return read_raw_xrgb(os.path.join(dump, "frame-000000.raw"), width, height)

        def above_wave(image):
            rows = height * 80 // 100  # the page's flow band is its bottom 14 %
            return Image(width, rows, image.rgb[:rows * width * 3])

        def matches(expected, label, attempts=20):
            for attempt in range(1, attempts + 1):
                differing, largest = compare(above_wave(vm.screendump(f"{label}-{attempt}")), above_wave(expected))
                if differing == 0:
                    return 0, attempt
                time.sleep(0.2)
            return differing, attempts

        # 06:00 CET on a Monday: the night rule has the screen off until 06:30.
        vm.sh("date -u -s '2027-03-22 05:00:00' >/dev/null")
        start(vm, "swell run --kiosk /data/cafe/kiosk.json", "/tmp/cafe.log", "screen off")
        dpms_night = vm.sh(f"cat {CONNECTOR_DPMS}")[1]
        # The clock is set (as NTP does after a boot in the past) to 10:59:40: the kiosk, asleep
        # until 06:30 by the old clock, wakes at once, turns the screen on and shows breakfast.
        vm.sh("date -u -s '2027-03-22 09:59:40' >/dev/null")
        code, lines = vm.sh("waitfor /tmp/cafe.log 'shows /data/cafe/breakfast.json' 100; r=$?; cat /tmp/cafe.log; "
                            "(exit $r)", timeout=30)
        if code != 0 or dpms_night != ["Off"]:
            stop(vm, "/tmp/cafe.log")
            return False, f"dpms at 06:00 {dpms_night}; after the clock was set: " + " | ".join(lines[-5:])
        morning = next(l for l in lines if "breakfast.json" in l)
        differing, before = matches(reference("2027-03-22 10:59:45", "cafe-breakfast"), f"{tag}-cafe-breakfast")
        if differing:
            stop(vm, "/tmp/cafe.log")
            return False, f"before 11:00: the screen differs from the breakfast menu's dump in {differing} px"
        pid = vm.sh("pidof swell")[1]
        code, lines = vm.sh("waitfor /tmp/cafe.log 'shows /data/cafe/lunch.json' 400; r=$?; date -u +%T; "
                            "cat /tmp/cafe.log; (exit $r)", timeout=70)
        if code != 0:
            stop(vm, "/tmp/cafe.log")
            return False, "the 11:00 change was not taken up: " + " | ".join(lines[-5:])
        said = next(l for l in lines if "lunch.json" in l)
        differing, after = matches(reference("2027-03-22 11:00:05", "cafe-lunch"), f"{tag}-cafe-lunch")
        same_process = vm.sh("pidof swell")[1] == pid
        exit_status, _ = stop(vm, "/tmp/cafe.log")
        if differing or not same_process or exit_status != 0:
            return False, (f"after 11:00 the screen differs from the lunch menu's dump in {differing} px; "
                           f"same process: {same_process}; exit {exit_status}")
        return True, (f"06:00: dpms Off (night); clock set to 10:59:40: '{morning.strip()}', == dump of the "
                      f"breakfast menu (attempt {before}); '{said.strip()}' at {lines[0]} UTC; 11:00 == dump of "
                      f"the lunch menu (attempt {after}); same process; exit 0")

    def vfb_formats():
        """vfb (a memory framebuffer) with two pages: XBGR8888 and BGR565 through the bitfields,
        the picture drawn into the back page and panned to, read back from /dev/fb1."""
        status, lines = vm.sh("insmod /modules/extra/vfb.ko vfb_enable=1 videomemorysize=4194304")
        if status != 0:
            return False, "cannot load vfb: " + " | ".join(lines)
        results = []
        for depth in (32, 16):
            status, lines = vm.sh(f"fbmode /dev/fb1 {depth} 960 && swell displays | grep '^fb1 '")
            if status != 0:
                return False, " | ".join(lines)
            info = lines[-1]
            fields = re.search(r"(\d+)x(\d+) virtual \d+x(\d+) offset=\S+ (\d+) bpp line_length=(\d+) "
                               r"R(\d+)@(\d+) G(\d+)@(\d+) B(\d+)@(\d+)", info)
            w, h, vh, bpp, line_length, rl, ro, gl, go, bl, bo = (int(v) for v in fields.groups())
            # The expected bytes of one page: the render centred to w x h, encoded by the bitfields.
            picture = centred(waves, w, h).rgb
            page = bytearray()
            for y in range(h):
                row = bytearray(line_length)
                for x in range(w):
                    r, g, b = picture[(y * w + x) * 3:(y * w + x) * 3 + 3]
                    value = (r >> (8 - rl)) << ro | (g >> (8 - gl)) << go | (b >> (8 - bl)) << bo
                    row[x * bpp // 8:(x + 1) * bpp // 8] = value.to_bytes(bpp // 8, "little")
                page += row
            expected = hashlib.md5(page).hexdigest()
            untouched = hashlib.md5(bytes(line_length * h)).hexdigest()
            start(vm, "swell show /data/waves.json --output fbdev --device /dev/fb1", "/tmp/vfb.log", "swell: showing")
            status, lines = vm.sh(
                "swell displays | grep '^fb1 '; "
                f"dd if=/dev/fb1 bs={line_length} skip={h} count={h} 2>/dev/null | md5sum; "
                f"dd if=/dev/fb1 bs={line_length} count={h} 2>/dev/null | md5sum")
            shown_offset = re.search(r"offset=(\d+),(\d+)", lines[0]).group(2)
            back_page, front_page = lines[1].split()[0], lines[2].split()[0]
            exit_status, _ = stop(vm, "/tmp/vfb.log")
            status, lines = vm.sh("swell displays | grep '^fb1 '")
            restored_offset = re.search(r"offset=(\d+),(\d+)", lines[-1]).group(2)
            problems = []
            if shown_offset != str(h):
                problems.append(f"panned to y={shown_offset}, expected the second page at {h}")
            if back_page != expected:
                problems.append("the shown page's bytes differ from the encoded render")
            if front_page != untouched:
                problems.append("the first page was written (the copy must go to the back page)")
            if restored_offset != "0" or exit_status != 0:
                problems.append(f"after SIGTERM: exit {exit_status}, offset y={restored_offset}")
            if problems:
                return False, f"{depth} bpp ({info}): " + "; ".join(problems)
            results.append(f"{bpp} bpp R{rl}@{ro} G{gl}@{go} B{bl}@{bo} pitch {line_length}")
        return True, ("vfb " + ", ".join(results) + ": picture written to page 2 and panned to (FBIOPAN_DISPLAY), "
                      "bytes == the render encoded by the bitfields, page 1 untouched, pan restored on SIGTERM")

    def ripple_tap():
        """`swell run ripples`: a tablet tap makes a ripple centred where the tap was; the empty
        pond draws nothing while idle."""
        lines = start(vm, "swell run ripples --output drm", "/tmp/run.log", "swell: running")
        ready = next(l for l in lines if "swell: running" in l)
        if not ready.endswith("(drm)"):
            return False, f"unexpected line '{ready}'"
        time.sleep(1.0)  # idle: the first frame only
        vx, vy = round(0.7 * TABLET_MAX), round(0.4 * TABLET_MAX)
        expect_x, expect_y = vx * width / (TABLET_MAX + 1), vy * height / (TABLET_MAX + 1)
        vm.tap(vx, vy)
        time.sleep(0.8)  # the ring grows 40 px/s: ~30 px after the flips of 0.8 s under TCG
        shot = vm.screendump(f"{tag}-ripple")
        exit_status, lines = stop(vm, "/tmp/run.log")
        centre, count = centroid_of_changes(shot, (255, 255, 255))
        frames_line = next((l for l in lines if re.search(r"swell: \d+ frames in", l)), "")
        if count == 0:
            return False, "no ripple on screen after the tap: " + " | ".join(lines[-4:])
        if abs(centre[0] - expect_x) > 1.5 or abs(centre[1] - expect_y) > 1.5:
            return False, f"ripple centred at ({centre[0]:.2f}, {centre[1]:.2f}), tap at ({expect_x:.2f}, {expect_y:.2f})"
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        return True, (f"'{ready}'; tablet tap → ripple of {count} px centred at ({centre[0]:.2f}, {centre[1]:.2f}), "
                      f"tap at ({expect_x:.2f}, {expect_y:.2f}); '{frames_line}'; SIGTERM → exit 0")

    def wave_button_tap():
        """`swell run examples/wave-button.json`: the screen equals the memory render; a tablet tap
        on the red Animate button (centred) bounces it and eases the wave to its first random
        target (the tutorial's tall range); once the 3 s ease and the bounce are over, the screen
        equals the memory render of the same page after one tap on the button (the targets are
        seeded, so they follow the number of taps, not their time)."""
        dump = os.path.join(work_dir, f"{tag}-wave-button")
        script = os.path.join(work_dir, "wave-button-tap.json")
        with open(script, "w") as f:
            f.write('{"format": "touches/1", "events": ['
                    f'{{"time": 0.5, "type": "down", "finger": 0, "x": {width / 2}, "y": {height / 2}}},'
                    '{"time": 0.6, "type": "up", "finger": 0}]}')
        for name, extra in (("before", []), ("after", ["--input", script])):
            subprocess.run([host_swell, "dump", "examples/wave-button.json", "--size", f"{width}x{height}",
                            "--fps", "1", "--frames", "10..10", "-o", f"{dump}-{name}"] + extra,
                           check=True, stdout=subprocess.DEVNULL)
        before = read_raw_xrgb(f"{dump}-before/frame-000010.raw", width, height)
        after = read_raw_xrgb(f"{dump}-after/frame-000010.raw", width, height)
        if compare(before, after)[0] == 0:
            return False, "the memory render does not change after a tap on the button"
        lines = start(vm, "swell run /data/wave-button.json --output drm", "/tmp/button.log", "swell: running")
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-button-before", before)
        if differing:
            stop(vm, "/tmp/button.log")
            return False, f"before the tap the screen differs from the memory render in {differing} px (max {largest})"
        vm.tap(TABLET_MAX // 2, TABLET_MAX // 2)
        time.sleep(5.0)  # the 3 s ease and the 0.7 s bounce, by the guest's clock
        shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-button-after", after)
        exit_status, lines = stop(vm, "/tmp/button.log")
        if differing:
            return False, f"after the tap the screen differs from the memory render of one tap in {differing} px (max {largest})"
        changed = compare(before, shot)[0]
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        return True, (f"screen == memory render before the tap; tablet tap on the Animate button → the wave "
                      f"eased to its first target: {changed} px changed, screen == memory render after one "
                      f"tap (attempt {attempts}); SIGTERM → exit 0")

    def idle_pond():
        """An empty pond on a real display with input devices open: one frame, then sleep."""
        status, lines = vm.sh("swell run ripples --output drm --seconds 4; echo status=$?", timeout=60)
        frames_line = next((l for l in lines if re.search(r"swell: \d+ frames in", l)), None)
        if frames_line is None or "status=0" not in lines:
            return False, "no frame count or a failure: " + " | ".join(lines[-4:])
        frames = int(re.search(r"swell: (\d+) frames", frames_line).group(1))
        if frames != 1:
            return False, f"'{frames_line}': an idle pond must draw its first frame only"
        return True, f"4 s idle on the display with the tablet open: '{frames_line}'"

    def slideshow_show():
        """`swell run` of a slideshow scene file through DRM: the pictures change on their timer,
        each decoded when it is next (on the slideshow's background queue); the truncated one is
        reported and skipped; a picture copied into the folder while it runs is shown after the
        one before it in name order; SIGTERM ends it cleanly."""
        colours = slide_colours("abcd")
        scene = slideshow_scene("/tmp/slides", interval=2, transition=0.3)
        vm.sh("mkdir -p /tmp/slides /tmp/later && cp /data/slide-[abc].png /tmp/slides/ && "
              f"cp /data/slide-d.png /tmp/later/ && echo '{scene}' >/tmp/show.json")
        lines = start(vm, "swell run /tmp/show.json --output drm", "/tmp/show.log", "swell: running")
        ready = next(l for l in lines if "swell: running" in l)
        seen = []  # the picture on each screenshot, or "mixed" mid-reveal

        def after(first, then):
            return first in seen and then in seen[seen.index(first):]

        added = False
        give_up = time.monotonic() + 90  # TCG: scaling a picture to 1080p takes a second or two here
        while time.monotonic() < give_up and not after("c", "d"):
            shot = vm.screendump(f"{tag}-slideshow-{len(seen)}")
            pixels = shot.width * shot.height
            seen.append(next((n for n, c in colours.items() if shot.rgb == bytes(c) * pixels), "mixed"))
            if after("a", "c") and not added:
                # As rsync does it: a temporary name the slideshow ignores, then a rename.
                vm.sh("cp /tmp/later/slide-d.png /tmp/slides/slide-d.part && "
                      "mv /tmp/slides/slide-d.part /tmp/slides/slide-d.png")
                added = True
            time.sleep(0.3)
        exit_status, lines = stop(vm, "/tmp/show.log")
        order = " ".join(seen)
        if not after("a", "c") or not after("c", "d"):
            return False, f"screens seen: {order}; expected a, then c, then the added d: " + " | ".join(lines[-4:])
        if "b" in seen:
            return False, f"the truncated picture b reached the screen: {order}"
        skipped = next((l for l in lines if "skipping /tmp/slides/slide-b.png" in l), None)
        if skipped is None:
            return False, "no report of the truncated picture: " + " | ".join(lines[-4:])
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        # Between reveals (0.3 s of every 2 s) the picture stands still and nothing is drawn.
        frames_line = next((l for l in lines if re.search(r"swell: \d+ frames in", l)), "")
        match = re.search(r"swell: (\d+) frames in ([\d.]+) ms", frames_line)
        if not match:
            return False, "no frame count: " + " | ".join(lines[-4:])
        rate = int(match.group(1)) / (float(match.group(2)) / 1000)
        if rate > 25:
            return False, f"'{frames_line}': {rate:.0f} frames/s; a still slideshow must sleep between reveals"
        return True, (f"'{ready}'; screens: {order}; '{skipped}'; '{frames_line}' ({rate:.1f} frames/s: "
                      "asleep between reveals); SIGTERM → exit 0")

    def slideshow_replaced():
        """A one-picture slideshow through DRM whose picture is rewritten in place (`cat >`: the
        same inode, a new modification time) and then replaced as rsync does (a new inode): each
        new version is revealed at the next tick, though the old one's frame was held all along."""
        colours = slide_colours("ace")
        scene = slideshow_scene("/tmp/one", interval=1, transition=0.3)
        vm.sh(f"mkdir -p /tmp/one && cp /data/slide-a.png /tmp/one/ && echo '{scene}' >/tmp/one.json")
        lines = start(vm, "swell run /tmp/one.json --output drm", "/tmp/one.log", "swell: running")
        seen = []

        def wait_for(name):
            return wait_for_colour(vm, colours, seen, name, f"{tag}-replaced")

        steps = [("a", None),
                 ("e", "cat /data/slide-e.png >/tmp/one/slide-a.png"),
                 ("c", "cp /data/slide-c.png /tmp/one/.slide-a.part && mv /tmp/one/.slide-a.part /tmp/one/slide-a.png")]
        for name, command in steps:
            if command:
                vm.sh(command)
            if not wait_for(name):
                stop(vm, "/tmp/one.log")
                return False, f"screens seen: {runs(seen)}; never {name} after '{command}'"
        exit_status, lines = stop(vm, "/tmp/one.log")
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        return True, f"screens: {runs(seen)} (a, rewritten in place → e, renamed over → c); SIGTERM → exit 0"

    def files_followed():
        """Signage updated in place, without a restart (no console flash, no modeset): `swell show
        menu.png --scale fill` puts a picture rewritten over it (`cat >`) and one renamed over it
        (rsync's way) on screen at once; a half-written one is reported and the old picture stays.
        `swell run scene.json` takes up a scene file replaced while it runs, keeps the old scene
        for a broken one, and follows a symbolic link swapped in (`ln -sf`)."""
        colours = slide_colours("ace")
        seen = []

        def wait_for(name, label):
            return wait_for_colour(vm, colours, seen, name, f"{tag}-followed-{label}")

        def change(command, said, log):
            """Runs `command` in the guest and waits for `said` in the program's log, which is then
            emptied (the next change waits for its own line): the line that said it, or None."""
            vm.sh(command)
            code, lines = vm.sh(f"waitfor {log} '{said}' 100; r=$?; cat {log}; (exit $r)")
            vm.sh(f": >{log}")
            return next((line for line in lines if said in line), None) if code == 0 else None

        def follow(label, command_line, ready, log, steps):
            """Starts `command_line`, then for each (screen, command, said): runs the command, waits
            for `said` and for the whole screen to be that picture's colour; stops it (exit 0).
            Returns (failure or None, the lines that said so)."""
            start(vm, command_line, log, ready)
            said_lines = []
            for screen, command, said in steps:
                if command:
                    line = change(command, said, log)
                    if line is None:
                        stop(vm, log)
                        return f"{label}: no '{said}' after '{command}'", said_lines
                    said_lines.append(line)
                if not wait_for(screen, label):
                    stop(vm, log)
                    return f"{label}: screens seen {runs(seen)}; never {screen} after '{command}'", said_lines
            exit_status, lines = stop(vm, log)
            if exit_status != 0:
                return f"{label}: exit status {exit_status}: " + " | ".join(lines[-4:]), said_lines
            return None, said_lines

        vm.sh("cp /data/slide-a.png /tmp/menu.png")
        failure, _ = follow("show", "swell show /tmp/menu.png --scale fill --output drm", "swell: showing",
                            "/tmp/menu.log",
                            [("a", None, None),
                             ("e", "cat /data/slide-e.png >/tmp/menu.png", "showing the new picture"),
                             ("e", "head -c 200 /data/slide-c.png >/tmp/menu.png", "cannot be shown"),
                             ("c", "cp /data/slide-c.png /tmp/.menu && mv /tmp/.menu /tmp/menu.png",
                              "showing the new picture")])
        if failure:
            return False, failure
        shown = runs(seen)
        seen.clear()

        def slideshow(folder):
            return slideshow_scene(folder, interval=60, transition=0.2)
        vm.sh("mkdir -p /tmp/sa /tmp/sc && cp /data/slide-a.png /tmp/sa/ && cp /data/slide-c.png /tmp/sc/ && "
              f"echo '{slideshow('/tmp/sa')}' >/tmp/scene.json && echo '{slideshow('/tmp/sc')}' >/tmp/c.json")
        # A broken scene file must leave the first scene on screen.
        failure, said = follow("run", "swell run /tmp/scene.json --output drm", "swell: running", "/tmp/scene.log",
                               [("a", None, None),
                                ("a", "echo '{\"scene\": \"slideshow\", \"parameters\": {\"folder\": 7}}' "
                                      ">/tmp/scene.json", "was not loaded"),
                                ("c", "ln -sf /tmp/c.json /tmp/scene.json", "running the new scene")])
        if failure:
            return False, failure
        return True, (f"show: {shown} (a; rewritten in place → e; half-written → e stays; renamed over → c); "
                      f"run: {runs(seen)} (slideshow of a; a broken scene file → a stays: '{said[0]}'; "
                      "a symlink to another scene → c); exit 0 both")

    def display_hotplug():
        """The display unplugged and plugged in again while `swell run` sleeps on an idle pond: the
        connector's status forced off, then back to detection, each followed by the hotplug uevent
        a driver sends (synthesised through the card's uevent file: QEMU cannot pull the cable).
        Swell must wake, say so, keep running while disconnected without flipping frames to the
        absent screen (a tap then animates the pond, unseen), set the mode again on reconnect and
        show the current picture, and exit 0 on SIGTERM."""
        status, uevent = CONNECTOR_STATUS, HOTPLUG_UEVENT
        start(vm, "swell run ripples --output drm", "/tmp/hp.log", "swell: running")
        before = vm.screendump(f"{tag}-hotplug-before")
        shots = {}
        steps = [("off", "disconnected; still running"), ("detect", "connected; mode")]
        for value, message in steps:
            code, lines = vm.sh(f"echo {value} >{status} && {uevent} && waitfor /tmp/hp.log '{message}' 100; "
                                "r=$?; cat /tmp/hp.log; (exit $r)")
            if code != 0:
                stop(vm, "/tmp/hp.log")
                return False, f"no '{message}' after '{value}' + hotplug uevent: " + " | ".join(lines[-4:])
            if value == "off":
                # A tap while unplugged: the pond animates, but nothing may be flipped to the screen.
                vm.tap(16384, 16384)
                time.sleep(1.5)
            else:
                time.sleep(1.5)
            shots[value] = vm.screendump(f"{tag}-hotplug-{value}")
        exit_status, lines = stop(vm, "/tmp/hp.log")
        unplugged, _ = compare(shots["off"], before)
        if unplugged:
            return False, f"while unplugged, {unplugged} pixels of the screen changed: frames were still flipped"
        replugged, _ = compare(shots["detect"], before)
        if not replugged:
            return False, "after the display came back the screen still shows the picture from before the tap"
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        said = [l for l in lines if "disconnected" in l or "connected; mode" in l]
        return True, (" | ".join(said) + "; a tap while unplugged: the screen unchanged, nothing flipped; "
                      f"once back, the new picture ({replugged} pixels changed by the ripple); SIGTERM → exit 0")

    def display_late():
        """A kiosk booted before its screen was switched on: with the connector forced off, `swell
        run --output auto` says it waits (no fallback to the card's own fbdev emulation, which
        would keep it off DRM) and, once the display is connected (status back to detection + the
        change uevent), runs on DRM at the display's mode; with --seconds it gives up with 69,
        not falling back to that fbdev emulation either. A SIGUSR1 (night hours) sent while it
        waits is kept: the screen goes off as soon as it runs, and SIGUSR2 brings the picture."""
        status, uevent = CONNECTOR_STATUS, HOTPLUG_UEVENT
        try:
            vm.sh(f"echo off >{status} && {uevent}")
            code, lines = vm.sh("swell show /data/waves.json --output auto --seconds 2; echo status=$?", timeout=30)
            text = " ".join(lines)
            if "status=69" not in lines or "waiting for a display" not in text or "no connected display" not in text:
                return False, f"--seconds 2 with no display: {text[:300]}"
            start(vm, "swell run ripples --output auto", "/tmp/late.log", "waiting for a display")
            time.sleep(1)
            _, lines = vm.sh("cat /tmp/late.log")
            if any("swell: running" in l for l in lines):
                stop(vm, "/tmp/late.log")
                return False, "ran before a display was connected: " + " | ".join(lines)
            # Night hours began before the screen came: SIGUSR1 while waiting is kept, not fatal.
            vm.sh("kill -USR1 $(cat /tmp/late.log.pid)")
            vm.sh(f"echo detect >{status} && {uevent}")
            code, lines = vm.sh("waitfor /tmp/late.log 'screen off' 100; r=$?; "
                                f"echo dpms=$(cat {CONNECTOR_DPMS}); cat /tmp/late.log; (exit $r)")
            if code != 0 or "dpms=Off" not in lines:
                stop(vm, "/tmp/late.log")
                return False, "SIGUSR1 sent while waiting was not applied once running: " + " | ".join(lines[-4:])
            vm.sh("kill -USR2 $(cat /tmp/late.log.pid)")
            code, lines = vm.sh("waitfor /tmp/late.log 'swell: running' 100; r=$?; cat /tmp/late.log; (exit $r)")
            running = next((l for l in lines if "swell: running" in l), None)
            if code != 0 or running is None or "(drm)" not in running:
                stop(vm, "/tmp/late.log")
                return False, "not running on DRM after the display was connected: " + " | ".join(lines[-4:])
            exit_status, lines = stop(vm, "/tmp/late.log")
            if exit_status != 0:
                return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
            waiting = next(l for l in lines if "waiting for a display" in l)
            return True, (f"--seconds 2 → 69; '{waiting}'; a SIGUSR1 while waiting → the screen off (dpms Off) "
                          f"once connected; SIGUSR2 → '{running}'; SIGTERM → exit 0")
        finally:
            vm.sh(f"echo detect >{status} && {uevent}")

    def service_watchdog():
        """Run by a systemd `Type=notify` unit with `WatchdogSec=` (the shipped unit), Swell talks
        to $NOTIFY_SOCKET (here `notify-listen`, standing in for systemd): while it waits for a
        display it is already up (STATUS says why it waits, then READY=1) and keeps the watchdog fed;
        once on screen READY=1 with "running ripples on …"; an idle pond, asleep, still sends a
        keep-alive every quarter of WATCHDOG_USEC; SIGTERM → STOPPING=1, exit 0."""
        status, uevent = CONNECTOR_STATUS, HOTPLUG_UEVENT
        log = "/tmp/notify.log"
        try:
            vm.sh(f"notify-listen /tmp/notify.sock >{log} 2>&1 & echo $! >/tmp/notify.pid")
            vm.sh(f"echo off >{status} && {uevent}")
            start(vm, "NOTIFY_SOCKET=/tmp/notify.sock WATCHDOG_USEC=2000000 swell run ripples --output auto",
                  "/tmp/wd.log", "waiting for a display")
            time.sleep(2.5)
            _, waiting = vm.sh(f"cat {log}")
            vm.sh(f"echo detect >{status} && {uevent}")
            vm.sh("waitfor /tmp/wd.log 'swell: running' 100")
            time.sleep(3)
            exit_status, lines = stop(vm, "/tmp/wd.log")
            time.sleep(0.3)
            _, messages = vm.sh(f"cat {log}")
        finally:
            vm.sh(f"echo detect >{status} && {uevent}; kill $(cat /tmp/notify.pid)")
        if waiting[:2] != [waiting[0], "READY=1"] or not waiting[0].startswith("STATUS=waiting for a display"):
            return False, "no waiting status and READY=1 while waiting: " + " | ".join(waiting[:3])
        fed_waiting = waiting.count("WATCHDOG=1")
        if fed_waiting < 2:
            return False, f"{fed_waiting} keep-alives in 2.5 s of waiting for a display (every 0.5 s expected)"
        running = next((i for i, m in enumerate(messages) if m.startswith("READY=1 STATUS=running ripples on")), None)
        if running is None:
            return False, "no READY=1 with 'running ripples on …' once on screen: " + " | ".join(messages[-4:])
        fed_idle = messages[running:].count("WATCHDOG=1")
        if fed_idle < 3:
            return False, f"{fed_idle} keep-alives in 3 s of an idle pond (every 0.5 s expected)"
        if messages[-1] != "STOPPING=1 STATUS=stopping: giving the display back" or exit_status != 0:
            return False, f"exit status {exit_status}, last message {messages[-1]!r}"
        return True, (f"'{waiting[0]}', READY=1, {fed_waiting} keep-alives while waiting; '{messages[running]}', "
                      f"{fed_idle} keep-alives in 3 s of an idle pond; SIGTERM → STOPPING=1, exit 0")

    def screen_power():
        """SIGUSR1 powers the display down (DPMS: the connector's sysfs `dpms` reads Off) and
        nothing is drawn, even for a tap; SIGUSR2 powers it up with the current picture (the tap's
        ripple); SIGTERM while it is off leaves it on for the console; exit 0 both times. The same
        through fbdev (FBIOBLANK)."""
        dpms = CONNECTOR_DPMS
        start(vm, "swell run ripples --output drm", "/tmp/pw.log", "swell: running")
        before = vm.screendump(f"{tag}-power-before")

        def signal_to(log, name, said):
            code, lines = vm.sh(f"kill -{name} $(cat {log}.pid) && waitfor {log} '{said}' 50; r=$?; "
                                f"echo dpms=$(cat {dpms}); (exit $r)")
            state = next((l.split("=")[1] for l in lines if l.startswith("dpms=")), "?")
            return code == 0, state

        def signal(name, said):
            return signal_to("/tmp/pw.log", name, said)

        said, state = signal("USR1", "screen off")
        if not said or state != "Off":
            stop(vm, "/tmp/pw.log")
            return False, f"SIGUSR1: {'no' if not said else 'a'} 'screen off' message, dpms {state}"
        vm.tap(16384, 16384)
        time.sleep(1)
        dark = vm.screendump(f"{tag}-power-off")
        frozen, _ = compare(dark, before)
        # Scan-out off: bochs shows black, virtio-gpu QEMU's "Display output is not active." on black.
        black = dark.rgb.count(0) >= 0.99 * len(dark.rgb)
        if frozen and not black:
            stop(vm, "/tmp/pw.log")
            return False, f"while off, the screen changed in {frozen} pixels: a frame was drawn"
        said, state = signal("USR2", "screen on")
        if not said or state != "On":
            stop(vm, "/tmp/pw.log")
            return False, f"SIGUSR2: {'no' if not said else 'a'} 'screen on' message, dpms {state}"
        time.sleep(1)
        changed, _ = compare(vm.screendump(f"{tag}-power-after"), before)
        exit_status, lines = stop(vm, "/tmp/pw.log")
        if not changed or exit_status != 0:
            return False, f"after SIGUSR2: {changed} pixels show the tap's ripple; exit {exit_status}"
        start(vm, "swell run ripples --output drm", "/tmp/pw2.log", "swell: running")
        code, lines = vm.sh(f"kill -USR1 $(cat /tmp/pw2.log.pid) && waitfor /tmp/pw2.log 'screen off' 50")
        exit_status, _ = stop(vm, "/tmp/pw2.log")
        _, lines = vm.sh(f"cat {dpms}")
        if code != 0 or exit_status != 0 or "On" not in lines:
            return False, f"SIGTERM while off: exit {exit_status}, dpms afterwards {' '.join(lines)}"
        # fbdev: FBIOBLANK, which the DRM driver's fbdev emulation turns into the same DPMS.
        start(vm, "swell run ripples --output fbdev", "/tmp/pw3.log", "swell: running")
        said_off, state_off = signal_to("/tmp/pw3.log", "USR1", "screen off")
        said_on, state_on = signal_to("/tmp/pw3.log", "USR2", "screen on")
        fb_exit, _ = stop(vm, "/tmp/pw3.log")
        if not (said_off and said_on) or (state_off, state_on) != ("Off", "On") or fb_exit != 0:
            return False, f"fbdev: off {said_off}/{state_off}, on {said_on}/{state_on}, exit {fb_exit}"
        return True, ("SIGUSR1 → 'screen off', dpms Off, a tap unseen (the screen "
                      + ("dark" if black else "unchanged") + "); SIGUSR2 → 'screen on', dpms On, "
                      f"the ripple on screen ({changed} pixels); SIGTERM while off → exit 0, dpms On; "
                      "the same through fbdev (FBIOBLANK): Off, On, exit 0")

    def screen_saver():
        """`--screen-off-after 2`: two seconds without a touch power the display down (dpms Off, a
        dark screen); a tablet tap powers it up (dpms On) and also reaches the pond (its ripple on
        screen); SIGTERM exits 0."""
        dpms = CONNECTOR_DPMS
        start(vm, "swell run ripples --output drm --screen-off-after 2", "/tmp/ss.log", "swell: running")
        before = vm.screendump(f"{tag}-saver-before")
        code, lines = vm.sh(f"waitfor /tmp/ss.log 'screen off (no touch for 2 s)' 100; r=$?; echo dpms=$(cat {dpms}); "
                            "cat /tmp/ss.log; (exit $r)")
        if code != 0 or "dpms=Off" not in lines:
            stop(vm, "/tmp/ss.log")
            return False, "no screen-off after 2 s without a touch: " + " | ".join(lines[-4:])
        vm.tap(16384, 16384)
        code, lines = vm.sh(f"waitfor /tmp/ss.log 'screen on (touch)' 100; r=$?; echo dpms=$(cat {dpms}); "
                            "cat /tmp/ss.log; (exit $r)")
        if code != 0 or "dpms=On" not in lines:
            stop(vm, "/tmp/ss.log")
            return False, "a tap did not wake the screen: " + " | ".join(lines[-4:])
        time.sleep(0.5)
        changed, _ = compare(vm.screendump(f"{tag}-saver-after"), before)
        exit_status, lines = stop(vm, "/tmp/ss.log")
        if not changed or exit_status != 0:
            return False, f"after the waking tap {changed} pixels show its ripple; exit {exit_status}"
        said = [l for l in lines if "screen o" in l]
        return True, " | ".join(said) + f"; dpms Off then On; the waking tap's ripple on screen ({changed} px); exit 0"

    def bench_drm():
        """`swell bench` through the DRM presenter: render, present (copy + flip) and total rows."""
        status, lines = vm.sh("swell bench ripples --output drm --frames 60 --threads 1; echo status=$?", timeout=240)
        text = "\n".join(lines)
        rows = {l.split()[0]: l.split() for l in lines if l.split() and l.split()[0] in ("render", "present", "total")}
        if "status=0" not in lines or set(rows) != {"render", "present", "total"} or "presenting: page flips" not in text:
            return False, "unexpected output: " + " | ".join(lines[-8:])
        if int(rows["render"][1]) != 60 or float(rows["present"][3]) <= 0:
            return False, f"rows {rows}"
        heading = next(l for l in lines if l.startswith("swell bench:"))
        return True, (f"'{heading}'; p50 render {rows['render'][3]} ms, present {rows['present'][3]} ms "
                      f"(TCG-emulated CPU)")

    def damage_same_screen():
        """Frames drawn with damage and presented with only what changed (found against the frame
        before: exact) end on the same screen as frames drawn and presented whole (damage off:
        --whole-frames): the renderer's damage, the partial copies, the flip's back buffer catching
        up on the frame before (buffer age) and DirtyFB's clip rectangles on a real driver. Then
        the copy's cost: a 1920x70 strip against a whole frame into a dumb buffer."""
        shots = {}
        for mode, flags in (("damage", "--damage diff"), ("whole", "--whole-frames")):
            log = f"/tmp/damage-{mode}.log"
            lines = start(vm, f"swell bench wave --output drm --frames 40 --threads 1 {flags} --hold", log,
                          "swell: holding", timeout_tenths=2400)
            shots[mode] = vm.screendump(f"{tag}-damage-{mode}")
            exit_status, lines = stop(vm, log)
            if exit_status != 0:
                return False, f"{mode}: exit {exit_status}: " + " | ".join(lines[-4:])
            if mode == "damage":
                share = next((l for l in lines if l.startswith("damage diff:")), None)
                presenting = next((l for l in lines if l.startswith("presenting:")), "")
                if share is None or share.startswith("damage diff: 100 "):
                    return False, f"the frames' damage was not partial: {share}"
        differing, largest = compare(shots["damage"], shots["whole"])
        if differing:
            write_png(shots["damage"], os.path.join(work_dir, f"{tag}-damage-actual.png"))
            write_png(shots["whole"], os.path.join(work_dir, f"{tag}-damage-expected.png"))
            return False, f"damage-only frames differ from whole frames in {differing} pixels (max {largest})"
        copy = {}
        for mode, flags in (("strip", f"--damage 0,{height // 2},{width},70"), ("whole", "")):
            status, lines = vm.sh(f"swell bench wave --output drm --frames 60 --threads 1 {flags}; echo status=$?",
                                  timeout=300)
            row = next((l.split() for l in lines if l.startswith("copy ")), None)
            if "status=0" not in lines or row is None:
                return False, f"{mode} copy bench: " + " | ".join(lines[-6:])
            copy[mode] = float(row[3])
        ratio = copy["whole"] / max(copy["strip"], 1e-3)
        return True, (f"{share}; '{presenting}'; screendump identical to whole frames; copy to the dumb buffer p50 "
                      f"{copy['strip']:.3f} ms for {width}x70 vs {copy['whole']:.3f} ms whole ({ratio:.1f}x, TCG)")

    def rotate_show(rotation):
        def body():
            lines = start(vm, f"swell show /data/waves.json --output drm --rotate {rotation}", "/tmp/rot.log",
                          "swell: showing")
            logical = (height, width) if rotation in (90, 270) else (width, height)
            expected = rotated_clockwise(centred(waves, *logical), rotation)
            shot, attempts, (differing, largest) = matching_screendump(vm, f"{tag}-rotate-{rotation}", expected)
            exit_status, _ = stop(vm, "/tmp/rot.log")
            if differing:
                return False, f"screenshot differs from the rotated render in {differing} pixels (max {largest})"
            return True, f"picture turned {rotation}° in the scan-out copy == rotated swell render; exit {exit_status}"
        return body

    if "drm-show" in core:
        run_case(f"{tag} drm-show ({driver})", drm_show)
    if "drm-restore" in core:
        run_case(f"{tag} drm-restore after SIG{stop_signal} ({driver})", drm_restore)
    if "fbdev-show" in core:
        run_case(f"{tag} fbdev-show ({driver} fbdev emulation)", fbdev_show)
    if "pacing" in core:
        run_case(f"{tag} drm-flip-pacing ({driver})", redraw("drm"))
    if "touch" in core:
        run_case(f"{tag} touch (virtio-tablet → {driver})", touch())
    for kind, value in extra:
        if kind == "rotate":
            run_case(f"{tag} rotate-{value} ({driver})", rotate_show(value))
        elif kind == "fbdev-pacing":
            run_case(f"{tag} fbdev-pacing ({driver} fbdev emulation)", redraw("fbdev"))
        elif kind == "vfb":
            run_case(f"{tag} fbdev-formats-and-panning (vfb)", vfb_formats)
        elif kind == "png":
            run_case(f"{tag} png-show ({driver})", png_show)
        elif kind == "text":
            run_case(f"{tag} text-show ({driver})", text_show)
        elif kind == "video":
            run_case(f"{tag} video-show, FFmpeg in the guest ({driver})", video_show)
        elif kind == "schedule":
            run_case(f"{tag} schedule: the café's 11:00 change, before and after ({driver})", schedule_boundary)
        elif kind == "errors":
            run_case(f"{tag} error-messages ({driver})", errors)
        elif kind == "hotplug":
            run_case(f"{tag} input-hotplug (virtio-tablet-pci device_add/device_del)", hotplug)
        elif kind == "scenes":
            run_case(f"{tag} run ripples tap (virtio-tablet → {driver})", ripple_tap)
            run_case(f"{tag} run idle pond ({driver})", idle_pond)
            run_case(f"{tag} run wave-button.json, tap Animate (virtio-tablet → {driver})", wave_button_tap)
            run_case(f"{tag} bench through DRM ({driver})", bench_drm)
            run_case(f"{tag} damage-only frames == whole frames ({driver})", damage_same_screen)
            run_case(f"{tag} run slideshow ({driver})", slideshow_show)
            run_case(f"{tag} run slideshow, picture replaced ({driver})", slideshow_replaced)
            run_case(f"{tag} files followed: show and run ({driver})", files_followed)
            run_case(f"{tag} display hotplug ({driver})", display_hotplug)
            run_case(f"{tag} display connected late ({driver})", display_late)
            run_case(f"{tag} screen off and on ({driver})", screen_power)
            run_case(f"{tag} screen saver ({driver})", screen_saver)
            run_case(f"{tag} systemd notify and watchdog ({driver})", service_watchdog)
        elif kind == "ripple":
            run_case(f"{tag} run ripples tap (virtio-tablet → {driver})", ripple_tap)
        elif kind == "touch-rotate":
            run_case(f"{tag} touch rotate-{value} ({driver})", touch(value))
        elif kind == "calibrate":
            run_case(f"{tag} touch calibrate rotate-{value} ({driver})", touch_calibrate(value))
    vm.close()


def two_heads_suite():
    """Several displays from one process (issue 21): virtio-gpu with two outputs (max_outputs=2;
    QEMU 7.2 enables the second only when the kernel forces it on: video=Virtual-2:1024x768e),
    one boot for every check. `swell run --display Virtual-1=ripples --display
    Virtual-2=wave-button.json` drives both heads from one process; each head (QMP screendump
    with `head`) must equal the host's memory render of its own scene at its own size."""
    tag = "virtio-two-heads"
    names = [f"{tag} two scenes", f"{tag} one head unplugged", f"{tag} SIGTERM restores both",
             f"{tag} crash restores both", f"{tag} kiosk file: both heads, a new content taken up live"]
    if only and not any(only in name for name in names):
        return
    vm = KioskVM(boot_dir, os.path.join(work_dir, tag), "virtio", 1280, 720, outputs=2,
                 kernel_arguments="video=Virtual-2:1024x768e")
    try:
        timings.append((f"{tag} boot", vm.boot()))
    except VMError as error:
        report(f"{tag} boot", False, str(error))
        vm.close()
        return
    sizes = {0: (1280, 720), 1: (1024, 768)}
    scenes = {0: ("ripples", "0..0"), 1: ("examples/wave-button.json", "10..10")}
    expected = {}

    def reference(name, scene, frames, size):
        out = os.path.join(work_dir, f"{tag}-{name}-reference")
        subprocess.run([host_swell, "dump", scene, "--size", f"{size[0]}x{size[1]}", "--fps", "1", "--frames",
                        frames, "-o", out], check=True, stdout=subprocess.DEVNULL)
        return read_raw_xrgb(os.path.join(out, f"frame-{int(frames.split('..')[0]):06d}.raw"), size[0], size[1])

    for head, (scene, frames) in scenes.items():
        expected[head] = reference(f"head{head}", scene, frames, sizes[head])
    command = "swell run --display Virtual-1=ripples --display Virtual-2=/data/wave-button.json"
    log = "/tmp/heads.log"
    state = {}

    def head_matches(head, name, attempts=10):
        """Screenshots of `head` until one equals its memory render: (differing, largest, attempt)."""
        for attempt in range(1, attempts + 1):
            shot = vm.screendump(f"{name}-{attempt}", head=head)
            differing, largest = compare(shot, expected[head])
            if differing == 0:
                return 0, 0, attempt
            time.sleep(0.2)
        write_png(shot, os.path.join(work_dir, name + "-actual.png"))
        write_png(expected[head], os.path.join(work_dir, name + "-expected.png"))
        return differing, largest, attempts

    def start_both(command, log):
        """Starts `command` and waits until both outputs said they are running."""
        lines = start(vm, command, log, "swell: running")
        code, lines = vm.sh(f"i=0; while [ $(grep -c 'swell: running' {log}) -lt 2 ] && [ $i -lt 600 ]; do "
                            f"sleep 0.1; i=$((i+1)); done; cat {log}", timeout=90)
        return [l for l in lines if "swell: running" in l]

    def two_scenes():
        state["before"] = crtc_states(vm)
        state["console"] = {head: vm.screendump(f"{tag}-console-{head}", head=head) for head in sizes}
        running = start_both(command, log)
        want = ["running ripples on card0 Virtual-1 1280x720@", "running wave-button.json on card0 Virtual-2 1024x768@"]
        if len(running) != 2 or not all(any(w in l for l in running) for w in want):
            return False, "expected a running line per output: " + " | ".join(running)
        details = []
        for head in sizes:
            differing, largest, attempt = head_matches(head, f"{tag}-head{head}")
            if differing:
                return False, f"head {head} differs from its memory render in {differing} px (max {largest}/255)"
            details.append(f"head {head} == memory render (attempt {attempt})")
        state["running"] = True
        return True, " | ".join(running) + "; " + ", ".join(details) + " (Virtual-2 without --mode: the mode shown)"

    def one_head_unplugged():
        """Virtual-2's status forced off, then on again, each with the hotplug uevent:
        Swell says so for that output only; a tap meanwhile reaches the first output, whose pond
        ripples (it keeps running); once back, head 1 shows its scene again."""
        if not state.get("running"):
            return False, "needs the two-scenes case"
        status = "/sys/class/drm/card0-Virtual-2/status"
        head0 = vm.screendump(f"{tag}-unplug-head0-before", head=0)
        said = []
        # Back with "on", not "detect": QEMU 7.2 reports the second output disconnected by itself (the
        # kernel's video=…e forced it on at boot).
        for value, message in (("off", "Virtual-2 disconnected; still running"), ("on", "Virtual-2 connected; mode")):
            code, lines = vm.sh(f"echo {value} >{status} && {HOTPLUG_UEVENT} && waitfor {log} '{message}' 100; "
                                f"r=$?; cat {log}; (exit $r)")
            if code != 0:
                return False, f"no '{message}' after '{value}' + hotplug uevent: " + " | ".join(lines[-4:])
            said.append(next(l for l in lines if message in l))
            if value == "off":
                if any("Virtual-1 disconnected" in l for l in lines):
                    return False, "Virtual-1 was reported disconnected too"
                vm.tap(round(0.3 * TABLET_MAX), round(0.5 * TABLET_MAX))
                time.sleep(1.5)
                rippled, _ = compare(vm.screendump(f"{tag}-unplug-head0-tap", head=0), head0)
                if not rippled:
                    return False, "with Virtual-2 unplugged, a tap left head 0 unchanged: the first output stopped"
        differing, largest, attempt = head_matches(1, f"{tag}-replugged-head1")
        if differing:
            return False, f"after the replug head 1 differs from its scene in {differing} px (max {largest}/255)"
        return True, (" | ".join(said) + f"; while unplugged a tap rippled head 0 ({rippled} px); "
                      f"replugged head 1 == its memory render (attempt {attempt})")

    def restored(name, signal, exit_wanted):
        """Stops the run with `signal` while a second fd holds the card (as a seat manager's
        does: only Swell's own restore brings the consoles back) and checks both CRTCs."""
        vm.sh("sleep 100000 3<>/dev/dri/card0 & echo $! >/tmp/holder.pid")
        during = crtc_states(vm)
        exit_status, lines = stop(vm, log, signal)
        after = crtc_states(vm)
        shots = {head: vm.screendump(f"{tag}-{name}-after-{head}", head=head) for head in sizes}
        vm.sh("kill $(cat /tmp/holder.pid)")
        problems = []
        if exit_status != exit_wanted:
            problems.append(f"exit status {exit_status}")
        before = state["before"]
        for connector in ("Virtual-1", "Virtual-2"):
            if during.get(connector, (0, 0))[1] == before.get(connector, (0, 0))[1]:
                problems.append(f"{connector}: fb did not change while running")
            if after.get(connector) != before.get(connector):
                problems.append(f"{connector}: after stop {after.get(connector)}, before {before.get(connector)}")
        for head, shot in shots.items():
            differing, _ = compare(shot, state["console"][head])
            if differing > 8 * 16:  # the console's blinking cursor
                problems.append(f"head {head} differs from the console in {differing} px")
        return problems, lines, after

    def sigterm_restores_both():
        if not state.get("running"):
            return False, "needs the two-scenes case"
        problems, lines, after = restored("term", "TERM", 0)
        said = next((l for l in lines if "stopped by SIGTERM; display restored" in l), None)
        if said is None:
            problems.append("no 'stopped by SIGTERM; display restored' line")
        if problems:
            return False, "; ".join(problems)
        frames = [l for l in lines if re.search(r"swell: Virtual-\d: \d+ frames", l)]
        return True, (f"'{said}'; exit 0; with a second fd held both CRTCs back on the console "
                      f"({after}); both heads == console; " + " | ".join(frames))

    def crash_restores_both():
        """SIGSEGV with no VT console: the fatal-signal handler restores every armed CRTC, not only
        the last opened."""
        if "before" not in state:  # (run alone)
            state["before"] = crtc_states(vm)
            state["console"] = {head: vm.screendump(f"{tag}-console-{head}", head=head) for head in sizes}
        # Without a VT to take over: the handler's KD_TEXT would make fbcon bring every head back
        # by itself once the dead process's master is gone, hiding a CRTC the handler missed
        # (seen: with one slot, as before, Virtual-1 stayed dark only with the VT away).
        vm.sh("mv /dev/tty0 /dev/tty0.away; mv /dev/console /dev/console.away")
        try:
            running = start_both(command, log)
            if len(running) != 2:
                return False, "not running on both outputs: " + " | ".join(running)
            problems, lines, after = restored("segv", "SEGV", 139)
        finally:
            vm.sh("mv /dev/tty0.away /dev/tty0; mv /dev/console.away /dev/console")
        if problems:
            return False, "; ".join(problems)
        return True, (f"no VT to restore; SIGSEGV → exit 139; the handler put both CRTCs back on the console "
                      f"({after}); both heads == console")

    def kiosk_file():
        """The same two scenes from a kiosk file (`swell run --kiosk`): each head equals its
        memory render; then the file is rewritten (a temporary file renamed over it, as an editor
        or rsync does) to show ripples on Virtual-2 as well, and that head becomes the empty pond
        without a restart (same process, a journal line)."""
        kiosk = {"format": "kiosk/1", "outputs": [{"connector": "Virtual-1", "content": "ripples"},
                                                 {"connector": "Virtual-2", "content": "/data/wave-button.json"}]}
        vm.sh(f"echo '{json.dumps(kiosk)}' >/tmp/kiosk.json")
        code, lines = vm.sh("swell run --kiosk /tmp/kiosk.json --check 2>&1")
        if code != 0 or not any("is a valid kiosk file: Virtual-1 shows ripples" in l for l in lines):
            return False, f"--check → {code}: " + " | ".join(lines)
        checked = lines[-1]
        running = start_both("swell run --kiosk /tmp/kiosk.json", "/tmp/kiosk.log")
        if len(running) != 2:
            return False, "not running on both outputs: " + " | ".join(running)
        for head in sizes:
            differing, largest, attempt = head_matches(head, f"{tag}-kiosk-head{head}")
            if differing:
                stop(vm, "/tmp/kiosk.log")
                return False, f"head {head} differs from its memory render in {differing} px (max {largest}/255)"
        pid = vm.sh("pidof swell")[1]
        kiosk["outputs"][1]["content"] = "ripples"
        vm.sh(f"echo '{json.dumps(kiosk)}' >/tmp/.kiosk.new && mv /tmp/.kiosk.new /tmp/kiosk.json")
        code, lines = vm.sh("waitfor /tmp/kiosk.log 'Virtual-2 now shows ripples' 100; r=$?; cat /tmp/kiosk.log; "
                            "(exit $r)")
        if code != 0:
            stop(vm, "/tmp/kiosk.log")
            return False, "the new content was not taken up: " + " | ".join(lines[-4:])
        said = next(l for l in lines if "now shows ripples" in l)
        expected[1] = reference("head1-pond", "ripples", "0..0", sizes[1])
        differing, largest, attempt = head_matches(1, f"{tag}-kiosk-head1-pond")
        same_process = vm.sh("pidof swell")[1] == pid
        exit_status, _ = stop(vm, "/tmp/kiosk.log")
        if differing or not same_process or exit_status != 0:
            return False, (f"after the change head 1 differs in {differing} px; same process: {same_process}; "
                           f"exit {exit_status}")
        return True, (f"'{checked}'; both heads == their memory renders; '{said}'; head 1 == the empty pond "
                      f"(attempt {attempt}), same process; exit 0")

    run_case(names[0], two_scenes)
    run_case(names[1], one_head_unplugged)
    run_case(names[2], sigterm_restores_both)
    run_case(names[3], crash_restores_both)
    run_case(names[4], kiosk_file)
    vm.close()


def systemd_suite(device="vga", width=1920, height=1080):
    """The Debian package's unit (scripts/swell-kiosk.service), run by Debian's systemd as PID 1 in
    a fresh Debian 12 root where apt-get installed the .deb (the guest of initramfs-systemd.cpio,
    bochs-drm at 1920x1080), with a drop-in only for a 3 s watchdog; the user swell is the one
    the package's postinst made: its hardening (User=swell, DevicePolicy=closed, ProtectSystem=strict,
    PrivateNetwork=yes, NoNewPrivileges=yes) must leave Swell its display, its uevents and its
    files; Type=notify, the status line and the watchdog must work with the real service manager.
    The arm64 guest (no VGA on -M virt) runs it on virtio-gpu. On x86 the guest also gets a network
    card for the management API's case (`api_show`), the last one."""
    tag = f"systemd-{device}-{width}x{height}" if arch == "x86_64" else f"{arch}-systemd-{device}-{width}x{height}"
    if only and only not in f"{tag} systemd api-show":
        return
    # The API case (x86 only: the arm64 suite is sized for CI's few minutes) needs a network card:
    # QEMU's user-mode network, the guest's port 8443 forwarded to a free port on the host's loopback.
    api_case = f"{tag} systemd api-show: the API shows a page; its screenshot, the screendump and the memory render agree"
    api_port = None
    network = ()
    if arch == "x86_64" and (not only or only in api_case):
        api_port = free_port()
        network = ("-netdev", f"user,id=net0,hostfwd=tcp:127.0.0.1:{api_port}-:8443",
                   "-device", "virtio-net-pci,netdev=net0")
    # 1.5 GiB: 1 GiB left too little tmpfs for the 340 MiB Debian root once the package carried
    # three flavours ("Initramfs unpacking failed: write error"; arm64 hit it first).
    vm = boot_guest(tag, device, width, height, initramfs="initramfs-systemd.cpio",
                    memory_mb=1536, qemu_arguments=network)
    if vm is None:
        return
    colours = slide_colours("ac")
    seen = []

    def scene(folder):
        return slideshow_scene(folder, interval=60, transition=0.2)

    def unit(*properties):
        """`systemctl show swell-kiosk` of `properties`, as a dict."""
        _, lines = vm.sh("systemctl show swell-kiosk " + " ".join(f"-p {p}" for p in properties))
        return dict(line.split("=", 1) for line in lines if "=" in line)

    vm.sh("mkdir -p /var/lib/swell/a /var/lib/swell/c && cp /data/slide-a.png /var/lib/swell/a/ && "
          f"cp /data/slide-c.png /var/lib/swell/c/ && echo '{scene('/var/lib/swell/a')}' >/var/lib/swell/scene.json")

    def start_and_status():
        """`systemctl start` returns once Swell said READY=1 (Type=notify); the unit's status line
        is Swell's; the process runs as swell, without new privileges, in its own network
        namespace, and still hears the display's hotplug uevents there."""
        code, lines = vm.sh("systemctl --no-ask-password start swell-kiosk; echo rc=$?", timeout=90)
        shown = unit("ActiveState", "SubState", "StatusText", "MainPID", "WatchdogUSec", "Type")
        if "rc=0" not in lines or shown.get("ActiveState") != "active":
            _, journal = vm.sh("journalctl -u swell-kiosk --no-pager | tail -5")
            return False, f"start: {lines} {shown}; journal: " + " | ".join(journal)
        if not shown["StatusText"].startswith(f"running scene.json on card0 Virtual-1 {width}x{height}"):
            return False, f"status line {shown['StatusText']!r}"
        pid = shown["MainPID"]
        _, swell_uid = vm.sh("id -u swell")
        _, facts = vm.sh(f"grep -E '^(Uid|NoNewPrivs):' /proc/{pid}/status; "
                         f"[ $(readlink /proc/{pid}/ns/net) != $(readlink /proc/1/ns/net) ] && echo own-netns")
        uid = next((l.split()[1] for l in facts if l.startswith("Uid:")), None)
        if not swell_uid or uid != swell_uid[-1] or "NoNewPrivs:\t1" not in facts or "own-netns" not in facts:
            return False, f"process {pid}: {facts}"
        if not wait_for_colour(vm, colours, seen, "a", f"{tag}-start"):
            return False, f"screens seen {runs(seen)}: never the slideshow's picture"
        vm.sh(f"echo off >{CONNECTOR_STATUS} && {HOTPLUG_UEVENT}")
        time.sleep(1.5)
        unplugged = unit("StatusText")["StatusText"]
        vm.sh(f"echo detect >{CONNECTOR_STATUS} && {HOTPLUG_UEVENT}")
        time.sleep(1.5)
        replugged = unit("StatusText")["StatusText"]
        if "disconnected; still running" not in unplugged or "set again" not in replugged:
            return False, f"hotplug under PrivateNetwork=yes: status {unplugged!r}, then {replugged!r}"
        return True, (f"start → active (Type={shown['Type']}, WatchdogUSec={shown['WatchdogUSec']}); status "
                      f"{shown['StatusText']!r}; pid {pid}: uid {uid} (swell), NoNewPrivs 1, its own network "
                      f"namespace; the slideshow on screen; unplugged → {unplugged!r}; back → {replugged!r}")

    def night_hours():
        """The shipped night-hours units: both timers enable and are scheduled; the "off" service
        powers the display down through the running kiosk (SIGUSR1), the "on" service up again."""
        code, lines = vm.sh("systemctl --no-ask-password enable --now swell-screen-off.timer swell-screen-on.timer"
                            "; echo rc=$?")
        _, next_lines = vm.sh("systemctl show -p NextElapseUSecRealtime swell-screen-off.timer swell-screen-on.timer")
        scheduled = [l.split("=", 1)[1] for l in next_lines if l.startswith("NextElapseUSecRealtime=")]
        if "rc=0" not in lines or len(scheduled) != 2 or not all(scheduled):
            return False, f"enable: {lines}; next elapses {scheduled}"
        states = []
        for service in ("swell-screen-off", "swell-screen-on"):
            vm.sh(f"systemctl --no-ask-password start {service}.service")
            time.sleep(1)
            _, dpms = vm.sh(f"cat {CONNECTOR_DPMS}")
            states.append((dpms[0] if dpms else "?", unit("StatusText")["StatusText"]))
        if [state for state, _ in states] != ["Off", "On"]:
            return False, f"dpms after off, on: {states}"
        return True, (f"both timers enabled, next at {scheduled[0]} and {scheduled[1]}; swell-screen-off.service → "
                      f"dpms {states[0][0]}, status {states[0][1]!r}; swell-screen-on.service → dpms {states[1][0]}, "
                      f"status {states[1][1]!r}")

    def watchdog():
        """A frozen kiosk (SIGSTOP: its loop stops coming round) is killed by systemd's watchdog
        and restarted: a new process, the picture back on screen."""
        before = unit("MainPID", "NRestarts")
        vm.sh("systemctl kill -s SIGSTOP swell-kiosk")
        give_up = time.monotonic() + 60
        now = before
        while time.monotonic() < give_up:
            time.sleep(1)
            now = unit("MainPID", "NRestarts", "ActiveState", "StatusText")
            if now["NRestarts"] != before["NRestarts"] and now["ActiveState"] == "active" and \
                    now["StatusText"].startswith("running"):
                break
        else:
            return False, f"no restart within 60 s of freezing: {before} → {now}"
        _, journal = vm.sh("journalctl -u swell-kiosk --no-pager | grep -i watchdog | tail -1")
        if not any("watchdog" in line.lower() for line in journal):
            return False, "restarted, but the journal does not name the watchdog: " + " | ".join(journal)
        if not wait_for_colour(vm, colours, seen, "a", f"{tag}-restarted"):
            return False, f"after the restart, screens seen {runs(seen)}"
        return True, (f"pid {before['MainPID']} frozen → {journal[-1].split(': ', 1)[-1]!r}; restarted as pid "
                      f"{now['MainPID']} (NRestarts {now['NRestarts']}), the picture back on screen")

    def followed_and_stop():
        """A new scene file renamed over the old one is taken up by the running unit (no restart;
        the status line says so), and `systemctl stop` ends it cleanly with the console back."""
        before = unit("MainPID")["MainPID"]
        vm.sh(f"echo '{scene('/var/lib/swell/c')}' >/var/lib/swell/.new && mv /var/lib/swell/.new /var/lib/swell/scene.json")
        if not wait_for_colour(vm, colours, seen, "c", f"{tag}-followed"):
            return False, f"screens seen {runs(seen)}: the new scene never showed"
        shown = unit("MainPID", "StatusText")
        if shown["MainPID"] != before or "changed: running the new scene" not in shown["StatusText"]:
            _, journal = vm.sh("journalctl -u swell-kiosk --no-pager | tail -6")
            return False, f"pid {before} → {shown['MainPID']}, status {shown['StatusText']!r}; journal: " + " | ".join(journal)
        code, lines = vm.sh("systemctl --no-ask-password stop swell-kiosk; echo rc=$?")
        stopped = unit("ActiveState", "Result", "ExecMainStatus")
        _, crtc, fb, mode = crtc_state(vm)
        if "rc=0" not in lines or stopped != {"ActiveState": "inactive", "Result": "success", "ExecMainStatus": "0"} \
                or not fb:
            return False, f"stop: {lines} {stopped}; CRTC {crtc} fb {fb}"
        return True, (f"status {shown['StatusText']!r} (same pid {before}), the new scene on screen; stop → "
                      f"{stopped}; the CRTC back on the console's framebuffer {fb} ({mode})")

    def started_off():
        """The unit started inside a schedule's "off" window (the kiosk file's rule: off all day)
        draws nothing, yet is up: `systemctl start` returns, active, the status line the window's,
        the display powered off. (Without READY=1 before a frame, the start would time out and
        systemd restart it all night.)"""
        vm.sh("cp /etc/swell/kiosk.json /tmp/kiosk.json.shipped && "
              "echo '{\"format\": \"kiosk/1\", \"outputs\": [{\"content\": \"/var/lib/swell/scene.json\"}], "
              "\"schedule\": {\"rules\": [{\"name\": \"closed\", \"days\": \"daily\", \"content\": \"off\"}]}}' "
              ">/etc/swell/kiosk.json")
        code, lines = vm.sh("systemctl --no-ask-password start swell-kiosk; echo rc=$?", timeout=120)
        shown = unit("ActiveState", "StatusText", "NRestarts")
        _, dpms = vm.sh(f"cat {CONNECTOR_DPMS}")
        vm.sh("systemctl --no-ask-password stop swell-kiosk; cp /tmp/kiosk.json.shipped /etc/swell/kiosk.json")
        if "rc=0" not in lines or shown.get("ActiveState") != "active" or dpms != ["Off"] or \
                not shown.get("StatusText", "").startswith('screen off (the schedule: rule "closed"'):
            _, journal = vm.sh("journalctl -u swell-kiosk --no-pager | tail -5")
            return False, f"start: {lines} {shown}; dpms {dpms}; journal: " + " | ".join(journal)
        return True, f"start → active, dpms Off, status {shown['StatusText']!r}, NRestarts {shown['NRestarts']}"

    run_case(f"{tag} systemd: the shipped unit starts, reports and is sandboxed", start_and_status)
    run_case(f"{tag} systemd: night-hours timers turn the display off and on", night_hours)
    run_case(f"{tag} systemd: the watchdog restarts a frozen kiosk", watchdog)
    run_case(f"{tag} systemd: a scene file followed, then stop", followed_and_stop)
    run_case(f"{tag} systemd: started in an off window, up without a frame", started_off)
    if api_port is not None:
        run_case(api_case, lambda: api_show(vm, tag, width, height, api_port))
    vm.close()


def free_port():
    """A TCP port on the host's loopback that nothing listens on now (for QEMU's hostfwd)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def api_show(vm, tag, width, height, port):
    """The management API of the shipped unit's kiosk, called from the host through QEMU's port
    forwarding, as a laptop on the kiosk's network would: a token made here by the host's swell,
    the kiosk file's "api" (HTTPS on 0.0.0.0:8443 with the self-signed certificate Swell makes at
    its first start beside the tokens file; its SHA-256 is the journal's), the status, a page
    uploaded and shown; then the API's screenshot, QEMU's screendump of the guest's display and
    the host's memory render of the page (`swell dump`) must be the same pixels, exactly. Then
    the display off and on through the API (bochs-drm has DPMS: 200, sysfs dpms Off, then On)."""
    work = vm.work_dir
    tokens = os.path.join(work, "api-tokens.json")
    if os.path.exists(tokens):
        os.unlink(tokens)
    token = subprocess.run([host_swell, "token", "add", "test", "--tokens", tokens], check=True,
                           capture_output=True, text=True).stdout.strip()
    with open(tokens, "rb") as f:
        tokens_base64 = base64.b64encode(f.read()).decode()
    page_name = "api-page.json"
    page = json.dumps({"format": "scene/1", "background": "#1D3557", "layers": [
        {"scene": "text", "frame": {"x": 160, "y": 340, "width": 1600, "height": 400},
         "parameters": {"text": "Shown through the API", "font": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                        "size": 120, "color": "#F1FAEE", "align": "center", "valign": "center"}}]}).encode()
    page_path = os.path.join(work, page_name)
    with open(page_path, "wb") as f:
        f.write(page)
    dump = os.path.join(work, "api-page-dump")
    subprocess.run([host_swell, "dump", page_path, "--size", f"{width}x{height}", "--frames", "0..0", "-o", dump],
                   check=True, capture_output=True)
    expected = read_raw_xrgb(os.path.join(dump, "frame-000000.raw"), width, height)

    # The guest's network (no udev or networkd runs here): virtio_net, QEMU's user-mode address.
    _, lines = vm.sh("for ko in $(cat /modules/net/order); do insmod /modules/net/$ko; done; i=0; "
                     "while dev=$(ls /sys/class/net | grep -vx lo | head -1); [ -z \"$dev\" ] && [ $i -lt 50 ]; "
                     "do sleep 0.1; i=$((i + 1)); done; "
                     "ip link set lo up && ip addr add 10.0.2.15/24 dev $dev && ip link set $dev up && echo net=$dev")
    if not any(line.startswith("net=") for line in lines):
        return False, "the guest's network: " + " | ".join(lines)
    vm.sh(f"mkdir -p /etc/swell/api && echo {tokens_base64} | base64 -d >/etc/swell/api/tokens.json && "
          "chown -R swell:swell /etc/swell/api && chmod 700 /etc/swell/api && chmod 600 /etc/swell/api/tokens.json && "
          "cp /etc/swell/kiosk.json /tmp/kiosk.json.shipped && "
          "echo '{\"format\": \"kiosk/1\", \"outputs\": [{\"content\": \"/var/lib/swell/scene.json\"}], "
          "\"api\": {\"listen\": \"0.0.0.0:8443\", \"tokens\": \"/etc/swell/api/tokens.json\"}}' >/etc/swell/kiosk.json && "
          # The package's own drop-in, as docs/kiosk.md has the admin install it.
          "install -D -m 644 /usr/share/swell/swell-kiosk-api.conf /etc/systemd/system/swell-kiosk.service.d/api.conf && "
          "systemctl daemon-reload")
    shots = {}

    def saved(detail):
        for name, image in shots.items():
            write_png(image, os.path.join(work, f"api-{name}.png"))
        return False, detail + f" (pictures in {work}/api-*.png)"

    try:
        _, lines = vm.sh("systemctl --no-ask-password start swell-kiosk; echo rc=$?", timeout=120)
        _, journal = vm.sh("journalctl -u swell-kiosk --no-pager -o cat | grep 'api: ' | tail -4")
        serving = next((l for l in journal if "api: serving https://0.0.0.0:8443/" in l), None)
        if "rc=0" not in lines or serving is None:
            _, tail = vm.sh("journalctl -u swell-kiosk --no-pager -o cat | tail -6")
            return False, f"start: {lines}; journal: " + " | ".join(tail)
        fingerprint = re.search(r"certificate SHA-256 ([0-9A-F:]+)", serving).group(1)
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # self-signed: checked against the journal's fingerprint instead
        seen_certificates = set()

        def call(method, path, body=None, authorised=True):
            connection = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=120)
            headers = {"Authorization": f"Bearer {token}"} if authorised else {}
            if body is not None:
                headers["Content-Type"] = "application/json"
            try:
                connection.request(method, path, body=body, headers=headers)
                seen_certificates.add(hashlib.sha256(connection.sock.getpeercert(binary_form=True)).hexdigest())
                response = connection.getresponse()
                return response.status, response.read()
            finally:
                connection.close()

        def status():
            code, body = call("GET", "/api/v1/status")
            if code != 200:
                raise VMError(f"GET /api/v1/status → {code} {body[:300]!r}")
            return json.loads(body)

        code, body = call("GET", "/api/v1/status", authorised=False)
        if code != 401:
            return False, f"GET /api/v1/status without a token → {code} {body[:200]!r}, expected 401"
        first = status()
        output = first["outputs"][0]
        connector = output["connector"]
        if connector != "Virtual-1" or not output["mode"].startswith(f"{width}x{height}@") or output["power"] != "on":
            return False, f"status outputs {first['outputs']}"
        code, body = call("PUT", f"/api/v1/content/{page_name}", page)
        if code != 201:
            return False, f"PUT /api/v1/content/{page_name} → {code} {body[:300]!r}, expected 201"
        code, body = call("POST", "/api/v1/show", json.dumps({"content": page_name}).encode())
        if code != 200 or json.loads(body) != {"output": connector, "shows": page_name}:
            return False, f"POST /api/v1/show → {code} {body[:300]!r}"
        give_up = time.monotonic() + 60
        while (shown := status()["outputs"][0])["shows"] != page_name:
            if time.monotonic() > give_up:
                return False, f"status never showed {page_name}: {shown}"
            time.sleep(0.5)
        # The screenshot is the last frame presented: poll until the page's frame is the one.
        for attempt in range(1, 21):
            code, body = call("GET", f"/api/v1/outputs/{connector}/screenshot.png")
            if code != 200:
                return False, f"GET /api/v1/outputs/{connector}/screenshot.png → {code} {body[:300]!r}"
            shots["screenshot"] = read_png(body)
            screenshot_diff = compare(shots["screenshot"], expected)
            if screenshot_diff == (0, 0):
                break
            time.sleep(0.5)
        shots["screendump"], dump_attempts, dump_diff = matching_screendump(vm, f"{tag}-api", expected, attempts=20)
        shots["memory"] = expected
        if screenshot_diff != (0, 0) or dump_diff != (0, 0):
            return saved(f"against the memory render: the API's screenshot {screenshot_diff[0]} pixels differ "
                         f"(largest {screenshot_diff[1]}), the screendump {dump_diff[0]} (largest {dump_diff[1]}); "
                         f"screenshot against screendump {compare(shots['screenshot'], shots['screendump'])}")
        powers = []
        for state in ("off", "on"):
            code, body = call("POST", f"/api/v1/display/{state}", b"{}")
            _, dpms = vm.sh(f"cat {CONNECTOR_DPMS}")
            reported = status()["outputs"][0]["power"]
            powers.append(f"{state} → {code} {body.decode()}, status power {reported}, dpms {dpms[0] if dpms else '?'}")
            if code != 200 or json.loads(body) != {"outputs": [{"connector": connector, "power": state}]} or \
                    reported != state or dpms != [state.capitalize()]:
                return False, "display: " + "; ".join(powers)
        served = {fingerprint.replace(":", "").lower()}
        if seen_certificates != served:
            return False, f"the server's certificates {seen_certificates} are not the journal's {fingerprint}"
        return True, (f"https on the guest's 0.0.0.0:8443 (forwarded to 127.0.0.1:{port}), the certificate the "
                      f"journal names ({fingerprint[:23]}…); no token → 401; status {connector} {output['mode']} "
                      f"showing {output['shows']}; PUT {page_name} → 201; show → 200; status shows it; the API's "
                      f"screenshot (try {attempt}), the screendump (try {dump_attempts}) and `swell dump` are the "
                      f"same {width}x{height} pixels; display " + "; ".join(powers))
    finally:
        vm.sh("systemctl --no-ask-password stop swell-kiosk; cp /tmp/kiosk.json.shipped /etc/swell/kiosk.json; "
              "rm -f /etc/systemd/system/swell-kiosk.service.d/api.conf; systemctl daemon-reload")


def span_suite():
    """One scene over virtio-gpu's two heads as one canvas (`swell run --span Virtual-1,Virtual-2
    --bezel 40`): each head's screenshot equals its columns of the canvas's memory render, and a
    tablet bound to each head (QEMU routes input-send-event's `head` to it) reaches the scene
    through the output it is routed to. Virtual-1 prefers 1280x720 (its EDID), Virtual-2 is forced
    on with video=Virtual-2:1024x768e (QEMU 7.2 enables only the first head by itself); the row
    cases run both at 1024x768 (--mode), a mode both offer."""
    tag = "virtio-span"
    if only and only not in f"{tag} span":
        return
    width, height, bezel = 1024, 768, 40
    canvas_width = 2 * width + bezel
    # Virtual-2's console runs 1024x768 (the mode its CRTC shows, which Swell takes without --mode);
    # the layout case uses both sizes.
    vm = KioskVM(boot_dir, os.path.join(work_dir, tag), "virtio", 1280, 720, outputs=2,
                 kernel_arguments="video=Virtual-2:1024x768e", tablet_per_head=True)
    try:
        timings.append((f"{tag} boot", vm.boot()))
    except VMError as error:
        report(f"{tag} boot", False, str(error))
        vm.close()
        return
    span = f"--span Virtual-1,Virtual-2 --bezel {bezel} --mode {width}x{height}"

    def columns(image, x0, y0=0, w=width, h=None):
        """The w x h rectangle of `image` at (x0, y0) (a head's part of the canvas; h: to the bottom)."""
        h = image.height - y0 if h is None else h
        rows = (image.rgb[((y0 + y) * image.width + x0) * 3:((y0 + y) * image.width + x0 + w) * 3] for y in range(h))
        return Image(w, h, b"".join(rows))

    def tablet_node(head):
        """The guest's event node of the tablet bound to `head` (PCI slot 0x0a + head)."""
        status, lines = vm.sh("for e in /sys/class/input/event*; do "
                              f"readlink -f $e/device | grep -q 0000:00:{0x0a + head:02x}.0 && "
                              "echo node=/dev/input/${e##*/}; done; true")
        return next(l.split("=", 1)[1] for l in lines if l.startswith("node="))

    def heads_match(name, canvas):
        """Screenshots of both heads until each equals its columns of `canvas` (at most 10 tries)."""
        for attempt in range(1, 11):
            shots = [vm.screendump(f"{tag}-{name}-head{head}-{attempt}", head=head) for head in (0, 1)]
            diffs = [compare(shots[head], columns(canvas, head * (width + bezel))) for head in (0, 1)]
            if all(d == (0, 0) for d in diffs):
                return True, attempt, diffs
            time.sleep(0.2)
        for head in (0, 1):
            write_png(shots[head], os.path.join(work_dir, f"{tag}-{name}-head{head}-actual.png"))
            write_png(columns(canvas, head * (width + bezel)),
                      os.path.join(work_dir, f"{tag}-{name}-head{head}-expected.png"))
        return False, attempt, diffs

    def seam_exact():
        """wave-button.json over both heads: the Animate button sits on the canvas's middle, half
        of it behind the bezel. Each head equals its columns of the host's memory render;
        a tap on head 1's part of the button (the head-1 tablet, --touch to Virtual-2) animates the
        wave over both heads, equal to the render of one tap at that canvas point. (1024x768 heads:
        the canvas is 2088x768, head 1 from column 1064.)"""
        tap_x, tap_y = 20, height // 2  # head 1, inside the button (canvas 988..1100 x 362..406)
        canvas_x = width + bezel + tap_x
        script = os.path.join(work_dir, "span-button-tap.json")
        with open(script, "w") as f:
            f.write('{"format": "touches/1", "events": ['
                    f'{{"time": 0.5, "type": "down", "finger": 0, "x": {canvas_x}, "y": {tap_y}}},'
                    '{"time": 0.6, "type": "up", "finger": 0}]}')
        renders = {}
        for name, extra in (("before", []), ("after", ["--input", script])):
            out = os.path.join(work_dir, f"{tag}-button-{name}")
            subprocess.run([host_swell, "dump", "examples/wave-button.json", "--size", f"{canvas_width}x{height}",
                            "--fps", "1", "--frames", "10..10", "-o", out] + extra,
                           check=True, stdout=subprocess.DEVNULL)
            renders[name] = read_raw_xrgb(os.path.join(out, "frame-000010.raw"), canvas_width, height)
        tablet = tablet_node(1)
        lines = start(vm, f"swell run /data/wave-button.json {span} --touch {tablet}=Virtual-2", "/tmp/span.log",
                      "swell: running")
        ready = next(l for l in lines if "swell: running" in l)
        matched, attempts, diffs = heads_match("before", renders["before"])
        if not matched:
            stop(vm, "/tmp/span.log")
            return False, f"before the tap the heads differ from their columns of the canvas: {diffs}"
        vm.tap(tap_x * (TABLET_MAX + 1) // width, tap_y * (TABLET_MAX + 1) // height, head=1)
        time.sleep(5.0)  # the 3 s ease and the bounce, by the guest's clock
        matched, attempts, diffs = heads_match("after", renders["after"])
        exit_status, lines = stop(vm, "/tmp/span.log")
        if not matched:
            return False, f"after the tap the heads differ from their columns of the canvas: {diffs}"
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        changed = compare(renders["before"], renders["after"])[0]
        return True, (f"'{ready}'; each head == its {width} columns of the {canvas_width}x{height} memory render "
                      f"(head 1 from column {width + bezel}); a tap on head 1 at ({tap_x}, {tap_y}) = canvas "
                      f"({canvas_x}, {tap_y}) animated the wave ({changed} px of the canvas changed) and both "
                      f"heads == the render after that tap (attempt {attempts}); SIGTERM → exit 0")

    def taps_to_heads():
        """ripples over both heads, the head-1 tablet sent to Virtual-2 by --touch and the head-0
        one left to the default (it matches no panel's size: the first output, and a line says
        so). A tap on head 1 makes a ripple centred there and nothing on head 0; a tap on head 0
        10 px from the seam makes a ripple that crosses the bezel onto head 1's first columns."""
        tablets = [tablet_node(0), tablet_node(1)]
        # `swell displays` names each device, as --touch NAME=OUTPUT takes it.
        listed = [l.strip() for l in vm.sh("swell displays")[1] if l.strip().startswith("input ")]
        if f"input {tablets[1]} (QEMU Virtio Tablet): absolute pointer, x 0...32767, y 0...32767" not in listed:
            return False, f"swell displays lists the input devices as {listed}"
        lines = start(vm, f"swell run ripples {span} --touch {tablets[1]}=Virtual-2", "/tmp/taps.log",
                      "swell: running")
        routes = [l for l in lines if l.startswith("touch /dev/input/")]
        expected_routes = [
            f"touch {tablets[0]} (QEMU Virtio Tablet) → Virtual-1: its size (0…32767 × 0…32767) matches no output, "
            "so the first; --touch DEVICE=OUTPUT picks one",
            f"touch {tablets[1]} (QEMU Virtio Tablet) → Virtual-2 (--touch)"]
        if sorted(routes) != sorted(expected_routes):
            stop(vm, "/tmp/taps.log")
            return False, f"route lines {routes}, expected {expected_routes}"
        time.sleep(1.0)
        vm.tap(TABLET_MAX // 2, TABLET_MAX // 2, head=1)
        time.sleep(0.8)
        head0, head1 = (vm.screendump(f"{tag}-taps-head{head}", head=head) for head in (0, 1))
        centre, count = centroid_of_changes(head1, (255, 255, 255))
        other = centroid_of_changes(head0, (255, 255, 255))[1]
        problems = []
        if count == 0 or abs(centre[0] - width / 2) > 1.5 or abs(centre[1] - height / 2) > 1.5:
            problems.append(f"head 1 ripple of {count} px at {centre}, tap at ({width / 2}, {height / 2})")
        if other:
            problems.append(f"{other} px changed on head 0 after a tap on head 1")
        edge = lambda image: sum(1 for y in range(height) for x in range(24)
                                 if image.pixel(x, y) != (255, 255, 255))
        before = edge(head1)
        vm.tap((width - 10) * (TABLET_MAX + 1) // width, (TABLET_MAX + 1) // 4, head=0)
        crossed = 0
        give_up = time.monotonic() + 20
        while time.monotonic() < give_up and not crossed:
            time.sleep(0.5)
            crossed = edge(vm.screendump(f"{tag}-taps-crossed", head=1))
        exit_status, lines = stop(vm, "/tmp/taps.log")
        if before:
            problems.append(f"{before} px on head 1's first 24 columns before the tap near the seam")
        if not crossed:
            problems.append("the ripple begun 10 px left of the seam never reached head 1's first 24 columns")
        if exit_status != 0:
            problems.append(f"exit status {exit_status}")
        if problems:
            return False, "; ".join(problems) + " | " + " | ".join(lines[-4:])
        return True, (f"routes: {expected_routes[0]!r}, {expected_routes[1]!r}; head-1 tap → ripple of {count} px "
                      f"centred at ({centre[0]:.2f}, {centre[1]:.2f}) on head 1, head 0 untouched; head-0 tap 10 px "
                      f"from the seam → its ring on head 1's first columns ({crossed} px); SIGTERM → exit 0")

    def displays_taps():
        """Two scenes (`--display Virtual-1=ripples --display Virtual-2=ripples`), the head-1
        tablet sent to Virtual-2 by --touch: a tap on head 1 makes a ripple there, centred on the
        tap, and nothing on head 0; a tap on head 0 (its tablet left to the first output) makes
        one on head 0."""
        tablets = [tablet_node(0), tablet_node(1)]
        start(vm, f"swell run --display Virtual-1=ripples --display Virtual-2=ripples --mode {width}x{height} "
              f"--touch {tablets[1]}=Virtual-2", "/tmp/two.log", "running ripples on card0 Virtual-2")
        time.sleep(1.0)
        found = []
        for head, (fx, fy) in ((1, (0.25, 0.75)), (0, (0.75, 0.25))):
            vm.tap(round(fx * TABLET_MAX), round(fy * TABLET_MAX), head=head)
            time.sleep(0.8)
            shots = [vm.screendump(f"{tag}-two-{head}-head{h}", head=h) for h in (0, 1)]
            centre, count = centroid_of_changes(shots[head], (255, 255, 255))
            expect = (round(fx * TABLET_MAX) * width / (TABLET_MAX + 1), round(fy * TABLET_MAX) * height / (TABLET_MAX + 1))
            if count == 0 or abs(centre[0] - expect[0]) > 1.5 or abs(centre[1] - expect[1]) > 1.5:
                stop(vm, "/tmp/two.log")
                return False, f"tap on head {head}: ripple of {count} px at {centre}, tap at {expect}"
            if head == 1 and centroid_of_changes(shots[0], (255, 255, 255))[1]:
                stop(vm, "/tmp/two.log")
                return False, "a tap on head 1 changed head 0"
            found.append(f"head {head} tap → ripple of {count} px at ({centre[0]:.2f}, {centre[1]:.2f})")
        exit_status, lines = stop(vm, "/tmp/two.log")
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        return True, "; ".join(found) + " (head 0 untouched by the first); SIGTERM → exit 0"

    def stated_layout():
        """Virtual-1 at 1280x720 and Virtual-2 at its console's 1024x768: side by side without a
        stated layout is refused (exit 64, before anything is shown); with --span-at for each, the
        canvas is 2344x768 and each head equals its rectangle of the host's render."""
        status, lines = vm.sh("swell run ripples --span Virtual-1,Virtual-2 --seconds 1; echo status=$?", timeout=60)
        refused = next((int(l.split("=")[1]) for l in lines if l.startswith("status=")), None)
        message = " | ".join(l for l in lines if not l.startswith("status="))
        if refused != 64 or "need one height" not in message or "--span-at" not in message:
            return False, f"different heights in a row: exit {refused}: {message}"
        out = os.path.join(work_dir, f"{tag}-layout")
        subprocess.run([host_swell, "dump", "examples/wave-button.json", "--size", "2344x768", "--fps", "1",
                        "--frames", "10..10", "-o", out], check=True, stdout=subprocess.DEVNULL)
        canvas = read_raw_xrgb(os.path.join(out, "frame-000010.raw"), 2344, 768)
        lines = start(vm, "swell run /data/wave-button.json --span Virtual-1,Virtual-2 --span-at Virtual-1=0,24 "
                      "--span-at Virtual-2=1320,0", "/tmp/layout.log", "swell: running")
        ready = next(l for l in lines if "swell: running" in l)
        expected = [columns(canvas, 0, 24, 1280, 720), columns(canvas, 1320, 0, 1024, 768)]
        for attempt in range(1, 11):
            shots = [vm.screendump(f"{tag}-layout-head{head}-{attempt}", head=head) for head in (0, 1)]
            diffs = [compare(shots[head], expected[head]) for head in (0, 1)]
            if diffs == [(0, 0), (0, 0)]:
                break
            time.sleep(0.2)
        exit_status, lines = stop(vm, "/tmp/layout.log")
        if diffs != [(0, 0), (0, 0)]:
            for head in (0, 1):
                write_png(shots[head], os.path.join(work_dir, f"{tag}-layout-head{head}-actual.png"))
                write_png(expected[head], os.path.join(work_dir, f"{tag}-layout-head{head}-expected.png"))
            return False, f"'{ready}': heads differ from their rectangles of the canvas: {diffs}"
        if exit_status != 0:
            return False, f"exit status {exit_status}: " + " | ".join(lines[-4:])
        return True, (f"a row of 1280x720 and 1024x768: exit 64 '{message}'; with --span-at: '{ready}', each head == "
                      f"its rectangle of the 2344x768 render (attempt {attempt}); SIGTERM → exit 0")

    def span_errors():
        """A connector the card lacks lists the card's connectors (exit 69)."""
        status, lines = vm.sh(f"swell run ripples --span Virtual-1,HDMI-A-9 --mode {width}x{height} --seconds 1; "
                              "echo status=$?", timeout=60)
        exit_status = next((int(l.split("=")[1]) for l in lines if l.startswith("status=")), None)
        message = " | ".join(l for l in lines if not l.startswith("status="))
        if exit_status != 69 or "HDMI-A-9" not in message or "Virtual-2" not in message:
            return False, f"exit {exit_status}: {message}"
        return True, f"exit 69: {message}"

    run_case(f"{tag} span: each head is its columns of the canvas, a tap on head 1 moves both", seam_exact)
    run_case(f"{tag} span: taps reach the head their tablet is routed to", taps_to_heads)
    run_case(f"{tag} two scenes: taps reach the head their tablet is routed to", displays_taps)
    run_case(f"{tag} span: outputs of two sizes need a stated layout, and take one", stated_layout)
    run_case(f"{tag} span: an unknown connector lists the card's", span_errors)
    vm.close()


# (device, size, extra cases, the signal that stops the DRM show: each stop path once, and a crash).
configs = [
    ("vga", 1920, 1080, [("fbdev-pacing", None), ("png", None), ("text", None), ("scenes", None), ("schedule", None)],
     "TERM"),
    ("virtio", 1920, 1080, [("fbdev-pacing", None), ("scenes", None)], "INT"),
    ("vga", 1280, 800, [("rotate", 270), ("errors", None), ("vfb", None), ("video", None)], "HUP"),
    ("virtio", 1280, 800, [("rotate", 90), ("touch-rotate", 90), ("calibrate", 90), ("hotplug", None)], "SEGV"),
]
suite_started = time.monotonic()
if arch == "arm64":
    # CI gives the arm64 cases about 10 minutes, build and boots included: one aarch64 guest (virtio-gpu,
    # the display a Pi-like board's KMS driver stands for) checks what could differ on arm64 (the
    # pixels of the aarch64 build against its memory render, text through FreeType/HarfBuzz, FFmpeg's
    # aarch64 decoders, the tablet, the restore), then the systemd guest.
    suite_for("virtio", 1280, 800, [("text", None), ("ripple", None), ("video", None)], "TERM",
              core=("drm-show", "drm-restore", "fbdev-show", "touch"))
    if os.path.exists(os.path.join(boot_dir, "initramfs-systemd.cpio")):
        systemd_suite("virtio", 1280, 800)
else:
    for device, width, height, extra, stop_signal in configs:
        suite_for(device, width, height, extra, stop_signal)
    two_heads_suite()
    systemd_suite()
    span_suite()
for name, seconds in timings:
    if name.endswith("boot"):
        print(f"  time {name}: {seconds:.1f} s (QEMU start to the guest shell)")
print(f"  suite time: {time.monotonic() - suite_started:.0f} s")
passed = sum(results)
failed = len(results) - passed
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed or not results else 0)
