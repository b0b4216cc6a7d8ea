"""Times the strip page against the strip alone in one virtual-kiosk boot: render plus the copy
of the damage to the DRM dumb buffer, per frame, interleaved rounds.

Usage: strip_bench.py BOOT_DIR DEVICE ROUNDS FRAMES [icount]
The guest's /data/examples holds examples/ (strip.json, strip-alone.json, input/tap.json).
With icount, QEMU runs with -icount shift=0: the guest's clock advances 1 ns per emulated
instruction, so its times count instructions and no longer depend on how busy the host is.
"""

import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kiosk_vm import KioskVM, VMError  # noqa: E402

boot_dir, device, rounds, frames = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
icount = len(sys.argv) > 5 and sys.argv[5] == "icount"
vm = KioskVM(boot_dir, os.path.join(boot_dir, "run"), device, 1920, 1080,
             qemu_arguments=("-icount", "shift=0") if icount else ())
pages = ["strip", "strip-alone"]
saved = []  # each run's figures are kept in BOOT_DIR/PAGE-N.json


def bench(page):
    """One run of `swell bench` on DRM: each frame's render and copy milliseconds."""
    command = (
        f"swell bench /data/examples/{page}.json --output drm --frames {frames} --threads 1 "
        f"--input /data/examples/input/tap.json --json /tmp/{page}.json >/tmp/{page}.log 2>&1; "
        f"echo status $?; cat /tmp/{page}.json")
    status, lines = vm.sh(command, timeout=600)
    text = "\n".join(line for line in lines if not line.startswith("status "))
    if not any(line == "status 0" for line in lines):
        _, log = vm.sh(f"cat /tmp/{page}.log")
        raise VMError(f"swell bench {page} failed: {lines[:3]} {log[-5:]}")
    result = json.loads(text[text.index("{"):])
    with open(os.path.join(boot_dir, f"{page}-{len(saved)}.json"), "w") as file:
        json.dump(result, file)
    saved.append(page)
    # A build from before the copy was recorded per frame (copy_ms): its copy counts as 0.
    return result["render_ms"], result.get("copy_ms") or [0.0] * len(result["render_ms"])


try:
    print(f"strip-bench: guest shell after {vm.boot():.1f} s ({device}, 1920x1080, TCG, 1 vCPU"
          + (", -icount shift=0: 1 ns a guest instruction)" if icount else ")"))
    _, info = vm.sh("grep -m1 'model name' /proc/cpuinfo; cat /proc/loadavg; "
                    "cat /sys/devices/system/clocksource/clocksource0/current_clocksource")
    print("strip-bench: guest " + " | ".join(info))
    medians = {page: [] for page in pages}
    for round in range(rounds):
        for page in pages if round % 2 == 0 else reversed(pages):
            render, copy = bench(page)
            total = [r + c for r, c in zip(render, copy)]
            p50 = statistics.median(total)
            p25 = statistics.quantiles(total, n=4)[0]
            p10 = statistics.quantiles(total, n=10)[0]
            medians[page].append((p50, p25))
            print(f"round {round + 1} {page:12s} render p50 {statistics.median(render):.3f} ms, "
                  f"copy p50 {statistics.median(copy):.3f} ms, render+copy p50 {p50:.3f} ms, "
                  f"p25 {p25:.3f} ms, p10 {p10:.3f} ms, min {min(total):.3f} ms")
    # The guest's CPU is a host thread: a busy host stretches frames at random, so the lower
    # quartile is shown beside the median.
    for round in range(rounds):
        (page_p50, page_p25), (alone_p50, alone_p25) = medians["strip"][round], medians["strip-alone"][round]
        print(f"round {round + 1}: strip / strip-alone, render+copy: p50 {page_p50 / alone_p50:.2f}x, "
              f"p25 {page_p25 / alone_p25:.2f}x")
except VMError as error:
    print(f"strip-bench: {error}", file=sys.stderr)
    sys.exit(1)
finally:
    vm.close()
