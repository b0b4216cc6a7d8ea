# Sourced by the scripts: installs Debian packages that are missing, once, with apt-get.
# The package groups each script needs are named here, so there is one list to keep current.

# Building swell: pkg-config finds libpng and libdrm; libjpeg reads the slideshow's photographs.
# Text (SwellText): FreeType, HarfBuzz, fontconfig, FriBiDi and libunibreak (UAX #14 line
# breaking for text elements); DejaVu is the default font, the bench list's fonts and the
# tests'. The tests also compare shaping with HarfBuzz's hb-shape
# (libharfbuzz-bin), resolve "Quicksand:bold" (the rounded title) and shape Arabic, Hebrew and
# Devanagari with Noto (fonts-noto-core, 42 MB: a kiosk that shows only Latin text can drop it).
# binutils: objcopy writes the version into the binary (scripts/build). Video elements: FFmpeg's
# libraries (libavformat, libavcodec, libswscale); the ffmpeg command only makes the tests' clips
# and decodes their reference frames. tzdata: schedules are said in a time zone (the tests' and
# the café example's Europe/Berlin, with its daylight-saving nights). The management API:
# libmicrohttpd (its HTTP server, HTTPS through GnuTLS), GnuTLS (the self-signed certificate)
# and libsodium (the tokens' hashes).
SWELL_BUILD_PACKAGES=(pkg-config libpng-dev libdrm-dev libjpeg-dev libavformat-dev libavcodec-dev libswscale-dev ffmpeg
    libfreetype-dev libharfbuzz-dev libfontconfig-dev libfribidi-dev libunibreak-dev fonts-dejavu-core
    libharfbuzz-bin fonts-quicksand fonts-noto-core binutils tzdata libmicrohttpd-dev libgnutls28-dev libsodium-dev)
# The Debian package (scripts/package): dpkg-shlibdeps (dpkg-dev) computes its Depends, lintian
# checks it, python3 writes the man page and completion; debootstrap makes the fresh Debian 12
# root scripts/test-package installs it into; curl asks the installed swell's API for its status.
SWELL_PACKAGE_PACKAGES=(dpkg-dev lintian python3 debootstrap curl)
# The benchmark's reference renderer (Benchmarks/Package.swift's CCairo: the root package, and so
# building swell, never needs it).
SWELL_BENCH_PACKAGES=(libcairo2-dev)
# The virtual kiosk: QEMU, a kernel with its modules, busybox for the guest, cpio and kmod to
# pack the initramfs, python3 for the QMP driver, a C compiler and libc headers for the tiny
# static helpers the guest runs (fbmode.c, notify-listen.c), and systemd: the second guest boots
# it as PID 1 to run the shipped unit file for real.
SWELL_KIOSK_PACKAGES=(qemu-system-x86 linux-image-amd64 busybox-static cpio kmod python3 gcc libc6-dev systemd)

# The management API's integration tests (scripts/test-api): python3 runs them (standard library
# only), python3-venv makes .build/page-venv for Selenium (pinned, from PyPI) for the page's
# real-browser case in Debian's headless chromium through chromium-driver; openssl checks the
# HTTPS versions offered and the certificate's fingerprint; curl is for poking by hand.
SWELL_API_TEST_PACKAGES=(python3 python3-venv openssl curl chromium chromium-driver)

# ensure_packages NAME... : installs those not yet installed (apt-get update first).
ensure_packages() {
    local missing=() p sudo=""
    for p in "$@"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    ((${#missing[@]})) || return 0
    echo "installing Debian packages: ${missing[*]}" >&2
    [[ $(id -u) -eq 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
