# Sourced by scripts/test-package and scripts/vm/build-initramfs: a fresh Debian 12 (bookworm)
# root made by debootstrap, without the Swift toolchain (nothing but Debian packages), cached in
# .build/debian12/root so later runs copy it instead of downloading it again.
#   minbase: the Essential packages and apt; plus systemd (what a kiosk boots, and PID 1 of the
#   virtual kiosk's systemd guest). The mirror is the one this machine's apt uses.

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

# ensure_debian_root: makes $SWELL_DEBIAN_ROOT once (debootstrap, a few minutes from nothing).
ensure_debian_root() {
    [[ -e $SWELL_DEBIAN_ROOT/.swell-complete ]] && return 0
    local mirror partial=.build/debian12/root.partial
    mirror=$(debian_mirror)
    echo "debootstrap: Debian 12 (bookworm, minbase + systemd) from $mirror into $SWELL_DEBIAN_ROOT" >&2
    rm -rf "$partial" "$SWELL_DEBIAN_ROOT"
    mkdir -p .build/debian12
    debootstrap --variant=minbase --include=systemd bookworm "$partial" "$mirror" >.build/debian12/debootstrap.log 2>&1 ||
        { tail -20 .build/debian12/debootstrap.log >&2; echo "debootstrap failed (log: .build/debian12/debootstrap.log)" >&2; return 69; }
    local security=${mirror%/debian}/debian-security
    [[ $mirror == */debian ]] || security=""
    {
        echo "deb $mirror bookworm main"
        echo "deb $mirror bookworm-updates main"
        [[ -n $security ]] && echo "deb $security bookworm-security main"
    } >"$partial/etc/apt/sources.list"
    # The indexes of those suites (debootstrap fetched only bookworm's), so the copies need no update.
    cp /etc/resolv.conf "$partial/etc/resolv.conf"
    chroot "$partial" apt-get update -qq >>.build/debian12/debootstrap.log 2>&1 ||
        { echo "apt-get update in the new root failed (log: .build/debian12/debootstrap.log)" >&2; return 69; }
    rm -f "$partial"/var/cache/apt/archives/*.deb
    touch "$partial/.swell-complete"
    mv "$partial" "$SWELL_DEBIAN_ROOT"
}

# copy_debian_root DIR: a fresh copy of the cached root at DIR, with the cached archives offered to apt.
copy_debian_root() {
    rm -rf "$1"
    cp -a "$SWELL_DEBIAN_ROOT" "$1"
    rm -f "$1/.swell-complete"
    if [[ -d $SWELL_DEBIAN_ARCHIVES ]]; then cp "$SWELL_DEBIAN_ARCHIVES"/*.deb "$1/var/cache/apt/archives/" 2>/dev/null || true; fi
}

# keep_debian_archives DIR: what apt downloaded into the copy at DIR, kept for the next copy.
keep_debian_archives() {
    mkdir -p "$SWELL_DEBIAN_ARCHIVES"
    cp -n "$1"/var/cache/apt/archives/*.deb "$SWELL_DEBIAN_ARCHIVES/" 2>/dev/null || true
}
