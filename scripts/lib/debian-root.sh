# shellcheck shell=bash
# Sourced by scripts/test-package and scripts/vm/build-initramfs: a fresh Debian 12 (bookworm)
# root made by debootstrap, without the Swift toolchain (nothing but Debian packages), cached in
# .build/debian12/root so later runs copy it instead of downloading it again.
#   minbase: the Essential packages and apt; plus systemd (what a kiosk boots, and PID 1 of the
#   virtual kiosk's systemd guest). The mirror is the one this machine's apt uses.
# ARCH (amd64, the default, or arm64) picks the root: arm64's is .build/debian12-arm64/root, made by
# mmdebstrap --arch=arm64 and run through qemu-aarch64-static; anything that runs its programs in a
# chroot (maintainer scripts, the package test) needs arm64_binfmt_on (scripts/lib/arm64.sh) first.

SWELL_DEBIAN_ROOT=.build/debian12/root
# Packages apt downloaded for earlier installs into copies of the root, offered again to the next
# copy so a second run needs no network (apt still checks each one against the mirror's index).
SWELL_DEBIAN_ARCHIVES=.build/debian12/archives

# The Debian mirror in /etc/apt/sources.list or sources.list.d/*.sources (deb822), else deb.debian.org.
debian_mirror() {
    local uri
    uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk '$1 == "deb" && $0 ~ / (bookworm|stable) / { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
    if [[ -z $uri ]]; then
        uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null |
            awk 'tolower($1) == "uris:" { uris = $2 } tolower($1) == "suites:" && / bookworm( |$)/ { print uris; exit }')
    fi
    echo "${uri:-http://deb.debian.org/debian}"
}

# debian_root_base [ARCH]: the folder holding ARCH's root, its archives and logs.
debian_root_base() {
    case ${1:-amd64} in
        amd64) echo .build/debian12 ;;
        arm64) echo .build/debian12-arm64 ;;
        *) echo "debian-root: unsupported architecture '$1'; supported: amd64, arm64" >&2; return 64 ;;
    esac
}

# debian_root_dir [ARCH]: the cached root of ARCH (amd64: $SWELL_DEBIAN_ROOT, as before).
debian_root_dir() {
    local base
    base=$(debian_root_base "${1:-amd64}") || return
    [[ ${1:-amd64} == amd64 ]] && { echo "$SWELL_DEBIAN_ROOT"; return; }
    echo "$base/root"
}

# ensure_debian_root [ARCH]: makes ARCH's root once (a few minutes from nothing; arm64's second
# stage runs emulated, so it turns binfmt on for its length and off again).
ensure_debian_root() {
    local arch=${1:-amd64} base root
    base=$(debian_root_base "$arch") || return
    root=$(debian_root_dir "$arch")
    [[ -e $root/.swell-complete ]] && return 0
    local mirror partial=$base/root.partial log=$base/debootstrap.log
    mirror=$(debian_mirror)
    rm -rf "$partial" "$root"
    mkdir -p "$base"
    if [[ $arch == amd64 ]]; then
        echo "debootstrap: Debian 12 (bookworm, minbase + systemd) from $mirror into $root" >&2
        debootstrap --variant=minbase --include=systemd bookworm "$partial" "$mirror" >"$log" 2>&1 ||
            { tail -20 "$log" >&2; echo "debootstrap failed (log: $log)" >&2; return 69; }
    else
        # mmdebstrap: one apt download and one dpkg run, against debootstrap's package-by-package
        # second stage, which under emulation takes several times as long.
        ensure_packages mmdebstrap qemu-user-static arch-test
        declare -F arm64_binfmt_on >/dev/null || . scripts/lib/arm64.sh
        echo "mmdebstrap: Debian 12 arm64 (bookworm, minbase + systemd) from $mirror into $root" >&2
        arm64_binfmt_on
        mmdebstrap --arch=arm64 --variant=minbase --include=systemd bookworm "$partial" "$mirror" >"$log" 2>&1 ||
            { arm64_binfmt_off; tail -20 "$log" >&2; echo "mmdebstrap --arch=arm64 failed (log: $log)" >&2; return 69; }
    fi
    local security=${mirror%/debian}/debian-security
    [[ $mirror == */debian ]] || security=""
    {
        echo "deb $mirror bookworm main"
        echo "deb $mirror bookworm-updates main"
        [[ -n $security ]] && echo "deb $security bookworm-security main"
    } >"$partial/etc/apt/sources.list"
    # The indexes of those suites (debootstrap fetched only bookworm's), so the copies need no update.
    cp /etc/resolv.conf "$partial/etc/resolv.conf"
    local status=0
    chroot "$partial" apt-get update -qq >>"$log" 2>&1 || status=$?
    [[ $arch == arm64 ]] && arm64_binfmt_off
    ((status == 0)) || { echo "apt-get update in the new root failed (log: $log)" >&2; return 69; }
    rm -f "$partial"/var/cache/apt/archives/*.deb
    touch "$partial/.swell-complete"
    mv "$partial" "$root"
}

# copy_debian_root DIR [ARCH]: a fresh copy of ARCH's cached root at DIR, with its cached archives offered to apt.
copy_debian_root() {
    local root base
    root=$(debian_root_dir "${2:-amd64}") || return
    base=$(debian_root_base "${2:-amd64}")
    local archives=$base/archives
    [[ ${2:-amd64} == amd64 ]] && archives=$SWELL_DEBIAN_ARCHIVES
    [[ -e $root/.swell-complete ]] || { echo "debian-root: $root is not made yet (ensure_debian_root ${2:-amd64})" >&2; return 70; }
    rm -rf "$1"
    cp -a "$root" "$1"
    rm -f "$1/.swell-complete"
    if [[ -d $archives ]]; then cp "$archives"/*.deb "$1/var/cache/apt/archives/" 2>/dev/null || true; fi
}

# keep_debian_archives DIR [ARCH]: what apt downloaded into the copy at DIR, kept for ARCH's next copy.
keep_debian_archives() {
    local archives
    archives=$(debian_root_base "${2:-amd64}")/archives || return
    [[ ${2:-amd64} == amd64 ]] && archives=$SWELL_DEBIAN_ARCHIVES
    mkdir -p "$archives"
    cp -n "$1"/var/cache/apt/archives/*.deb "$archives/" 2>/dev/null || true
}
