"""Runs one swell command in the virtual kiosk and saves a screenshot of what it shows.

Usage: kiosk_run.py BOOT_DIR DEVICE WxH WAIT_SECONDS SCREENSHOT.png -- SWELL_ARGUMENTS...
"""

import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_vm import KioskVM, VMError, write_png  # noqa: E402

boot_dir, device, size, wait, screenshot = sys.argv[1:6]
arguments = sys.argv[sys.argv.index("--") + 1:]
width, height = (int(v) for v in size.split("x"))
vm = KioskVM(boot_dir, os.path.join(boot_dir, "run"), device, width, height)
try:
    print(f"kiosk-vm: booting Linux {open(os.path.join(boot_dir, 'kernel-version')).read().strip()} in QEMU "
          f"({'-vga std: bochs-drm' if device == 'vga' else 'virtio-gpu-pci: virtio_gpu'}, {width}x{height}, TCG)")
    print(f"kiosk-vm: guest shell after {vm.boot():.1f} s")
    command = "swell " + " ".join(shlex.quote(a) for a in arguments)
    # The program is on screen once it prints its "… on CARD CONNECTOR WxH@HZ (drm|fbdev)" line.
    status, lines = vm.sh(
        f"{command} >/tmp/run.log 2>&1 & echo $! >/tmp/run.pid; "
        "n=0; while ! grep -qE ' on [^ ]+ [^ ]+ [0-9]+x[0-9]+@[0-9]+ \\((drm|fbdev)\\)' /tmp/run.log; do "
        "kill -0 $(cat /tmp/run.pid) 2>/dev/null || break; n=$((n+1)); [ $n -gt 1200 ] && break; sleep 0.1; done; "
        "cat /tmp/run.log", timeout=180)
    for line in lines:
        print("guest: " + line)
    time.sleep(float(wait))
    image = vm.screendump("screenshot")
    write_png(image, screenshot)
    print(f"kiosk-vm: screenshot ({image.width}x{image.height}) saved to {screenshot}")
    status, lines = vm.sh("kill -TERM $(cat /tmp/run.pid) 2>/dev/null; wait $(cat /tmp/run.pid); "
                          "echo \"exit status $?\"; tail -n +1 /tmp/run.log | tail -5")
    for line in lines[-3:]:
        print("guest: " + line)
except VMError as error:
    print(f"kiosk-vm: {error}", file=sys.stderr)
    sys.exit(1)
finally:
    vm.close()
