# shellcheck shell=bash
# Sourced by the arm64 scripts (scripts/build --arch arm64, scripts/package --arch arm64,
# scripts/run-arm64, scripts/test-arm64): everything an x86-64 Debian 12 machine needs to build and
# run Swell for aarch64, made once and cached in .build/arm64/ (about 3.5 GB, 3 minutes from nothing).
#
#   toolchain/  Debian sid with its amd64 swiftlang 6.2.3 (mmdebstrap): the compiler. Debian 12 has
#               no Swift, and the 6.3 toolchain in /opt/swift cannot read 6.2.3's modules, so the
#               cross compiler must be the same release as the arm64 runtime. It needs sid's glibc,
#               so it runs in this root (chroot), with the repository bind-mounted at its own path.
#   runtime/    the arm64 Swift runtime and modules: lib/swift (the dynamic runtime, the test
#               bundle's) and lib/swift_static (linked into swell) from sid's arm64 swiftlang.
#   sysroot/    Debian 12's arm64 libraries and headers (libc6-dev, the -dev packages Swell links,
#               the tests' fonts), unpacked from .debs: what a Raspberry Pi OS Bookworm box has.
#   testroot/   sysroot with sid's libc6, libstdc++6 and libgcc-s1 over it: the dynamic Swift
#               runtime of the test bundle needs glibc 2.38 and later, everything else stays Debian 12's.
#
# Versions are pinned: the archive this runs against is a dated snapshot, and the toolchain and the
# runtime must be the same build. Debian 12's packages are a stable release; the versions unpacked
# are listed in sysroot/versions.txt.

SWELL_ARM64_DIR=.build/arm64
SWELL_SWIFT62_VERSION=6.2.3-1+b1
SWELL_ARM64_TRIPLE=aarch64-unknown-linux-gnu

# The arm64 libraries Swell builds against (scripts/lib/packages.sh has the amd64 list and why).
SWELL_ARM64_SYSROOT_PACKAGES=(libc6-dev libgcc-12-dev libstdc++-12-dev libpng-dev libdrm-dev libjpeg-dev
    libavformat-dev libavcodec-dev libswscale-dev libfreetype-dev libharfbuzz-dev libfontconfig-dev
    libfribidi-dev libunibreak-dev fonts-dejavu-core fonts-quicksand fonts-noto-core tzdata busybox-static
    libmicrohttpd-dev libgnutls28-dev libsodium-dev)

# arm64_apt SUITE ARGS...: apt-get with a private configuration (its own lists, cache and status)
# for arm64 packages of SUITE, so the host's apt state is never touched (no dpkg --add-architecture).
arm64_apt() {
    local suite=$1
    shift
    local base
    base=$(pwd)/$SWELL_ARM64_DIR/apt/$suite
    # apt.conf names its folders by absolute path: a cache copied from another checkout (cp -a of
    # .build/arm64) would otherwise keep downloading into that checkout's archives, and the
    # sysroot here would be unpacked without the packages it went for. Written again when it
    # names another place (with apt-get update: the lists are this folder's own from then on).
    if [[ ! -e $base/apt.conf ]] || ! grep -qxF "Dir::State \"$base\";" "$base/apt.conf"; then
        mkdir -p "$base"/{lists/partial,archives/partial,empty}
        : >"$base/status"
        local mirror
        mirror=$(debian_mirror)
        local suites=$suite
        [[ $suite == bookworm ]] && suites="bookworm bookworm-updates"
        local s
        for s in $suites; do
            echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $s main"
        done >"$base/sources.list"
        if [[ $suite == bookworm && $mirror == */debian ]]; then
            echo "deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/debian}/debian-security bookworm-security main" >>"$base/sources.list"
        fi
        cat >"$base/apt.conf" <<EOF
Dir::State "$base";
Dir::State::Lists "$base/lists";
Dir::State::status "$base/status";
Dir::Cache "$base";
Dir::Cache::archives "$base/archives";
Dir::Etc::SourceList "$base/sources.list";
Dir::Etc::SourceParts "$base/empty";
Dir::Etc::Preferences "$base/empty";
Dir::Etc::PreferencesParts "$base/empty";
APT::Architecture "arm64";
APT::Architectures { "arm64"; };
APT::Install-Recommends "false";
Acquire::Check-Valid-Until "false";
APT::Sandbox::User "root";
EOF
        APT_CONFIG=$base/apt.conf apt-get update -qq >&2 || { echo "arm64: apt-get update for $suite failed" >&2; return 69; }
    fi
    APT_CONFIG=$base/apt.conf apt-get "$@"
}

# unpack_debs DIR DEB...: dpkg -x each into DIR, then makes absolute symlinks relative, so they
# resolve inside DIR (bookworm's libm.so -> /lib/aarch64-linux-gnu/libm.so.6 would otherwise make
# lld fall back to libm.a).
unpack_debs() {
    local dir=$1 deb
    shift
    mkdir -p "$dir"
    for deb in "$@"; do dpkg -x "$deb" "$dir"; done
    python3 - "$dir" <<'PY'
import os, sys
root = os.path.abspath(sys.argv[1])
for folder, dirs, files in os.walk(root):
    for name in dirs + files:
        path = os.path.join(folder, name)
        if os.path.islink(path):
            target = os.readlink(path)
            if target.startswith("/"):
                os.unlink(path)
                os.symlink(os.path.relpath(root + target, folder), path)
PY
}

# ensure_arm64_toolchain: the sid root with the amd64 swiftlang compiler.
ensure_arm64_toolchain() {
    local root=$SWELL_ARM64_DIR/toolchain
    [[ -e $root/.swell-complete ]] && return 0
    ensure_packages mmdebstrap
    echo "arm64: Debian sid with swiftlang $SWELL_SWIFT62_VERSION (the cross compiler) into $root" >&2
    rm -rf "$root" "$root.partial"
    mkdir -p "$SWELL_ARM64_DIR"
    mmdebstrap --variant=apt --arch=amd64 --include="swiftlang=$SWELL_SWIFT62_VERSION,libswiftlang=$SWELL_SWIFT62_VERSION,pkgconf,libc6-dev" \
        --aptopt='Acquire::Check-Valid-Until "false"' sid "$root.partial" "$(debian_mirror)" >"$SWELL_ARM64_DIR/toolchain.log" 2>&1 ||
        { tail -20 "$SWELL_ARM64_DIR/toolchain.log" >&2; echo "arm64: mmdebstrap failed (log: $SWELL_ARM64_DIR/toolchain.log)" >&2; return 69; }
    touch "$root.partial/.swell-complete"
    mv "$root.partial" "$root"
}

# ensure_arm64_runtime: sid's arm64 Swift runtime (only lib/swift, lib/swift_static and lib/clang are kept).
ensure_arm64_runtime() {
    local runtime=$SWELL_ARM64_DIR/runtime
    [[ -e $runtime/.swell-complete ]] && return 0
    echo "arm64: the Swift $SWELL_SWIFT62_VERSION arm64 runtime into $runtime" >&2
    arm64_apt sid install -y -qq -d "swiftlang=$SWELL_SWIFT62_VERSION" "libswiftlang=$SWELL_SWIFT62_VERSION" >&2 ||
        { echo "arm64: downloading swiftlang:arm64 $SWELL_SWIFT62_VERSION failed" >&2; return 69; }
    local archives=$SWELL_ARM64_DIR/apt/sid/archives
    local unpacked=$SWELL_ARM64_DIR/runtime.unpacked
    rm -rf "$unpacked" "$runtime" "$runtime.partial"
    dpkg -x "$archives/swiftlang_${SWELL_SWIFT62_VERSION/:/%3a}_arm64.deb" "$unpacked"
    dpkg -x "$archives/libswiftlang_${SWELL_SWIFT62_VERSION/:/%3a}_arm64.deb" "$unpacked"
    mkdir -p "$runtime.partial/lib"
    # lib/swift/clang links to lib/clang/17: the C headers (stddef.h) of the clang inside.
    mv "$unpacked/usr/libexec/swift/lib/swift" "$unpacked/usr/libexec/swift/lib/swift_static" "$unpacked/usr/libexec/swift/lib/clang" "$runtime.partial/lib/"
    rm -rf "$unpacked"
    # The downloaded .debs are 527 MB: the unpacked runtime is the cache.
    rm -f "$archives"/swiftlang_*.deb "$archives"/libswiftlang_*.deb
    touch "$runtime.partial/.swell-complete"
    mv "$runtime.partial" "$runtime"
}

# ensure_arm64_sysroot: Debian 12's arm64 -dev packages with their dependencies, unpacked.
ensure_arm64_sysroot() {
    local sysroot=$SWELL_ARM64_DIR/sysroot
    # The stamp holds the package list: a package added to it makes the sysroot again.
    [[ -e $sysroot/.swell-complete && $(<"$sysroot/.swell-complete") == "${SWELL_ARM64_SYSROOT_PACKAGES[*]}" ]] && return 0
    echo "arm64: Debian 12 arm64 libraries and headers into $sysroot" >&2
    arm64_apt bookworm install -y -qq -d "${SWELL_ARM64_SYSROOT_PACKAGES[@]}" >&2 ||
        { echo "arm64: downloading Debian 12's arm64 packages failed" >&2; return 69; }
    rm -rf "$sysroot" "$sysroot.partial"
    local archives=$SWELL_ARM64_DIR/apt/bookworm/archives package
    # Each named package must be among the .debs unpacked (not only somewhere apt was told to put it).
    for package in "${SWELL_ARM64_SYSROOT_PACKAGES[@]}"; do
        compgen -G "$archives/${package}_*_*.deb" >/dev/null ||
            { echo "arm64: $package was not downloaded into $archives" >&2; return 69; }
    done
    unpack_debs "$sysroot.partial" "$archives"/*.deb
    (cd "$archives" && ls *.deb | sed 's/\.deb$//') >"$sysroot.partial/versions.txt"
    echo "${SWELL_ARM64_SYSROOT_PACKAGES[*]}" >"$sysroot.partial/.swell-complete"
    mv "$sysroot.partial" "$sysroot"
}

# ensure_arm64_testroot: the sysroot with sid's C and C++ runtime over it (see above).
ensure_arm64_testroot() {
    local testroot=$SWELL_ARM64_DIR/testroot
    ensure_arm64_sysroot
    # Made again with the sysroot (a newer sysroot than the test root's stamp).
    [[ -e $testroot/.swell-complete && ! $SWELL_ARM64_DIR/sysroot/.swell-complete -nt $testroot/.swell-complete ]] && return 0
    echo "arm64: the test root (Debian 12 arm64 with sid's glibc and libstdc++) into $testroot" >&2
    arm64_apt sid install -y -qq -d libc6 libstdc++6 libgcc-s1 >&2 ||
        { echo "arm64: downloading sid's arm64 libc6 failed" >&2; return 69; }
    rm -rf "$testroot" "$testroot.partial"
    cp -a "$SWELL_ARM64_DIR/sysroot" "$testroot.partial"
    rm -f "$testroot.partial/.swell-complete"
    local archives=$SWELL_ARM64_DIR/apt/sid/archives
    unpack_debs "$testroot.partial" "$archives"/libc6_*.deb "$archives"/libstdc++6_*.deb "$archives"/libgcc-s1_*.deb
    # sid's packages put the loader and libraries under usr/lib only (merged /usr); bookworm's are
    # under lib/. The loader path in arm64 binaries is /lib/ld-linux-aarch64.so.1.
    cp -a "$testroot.partial"/usr/lib/aarch64-linux-gnu/. "$testroot.partial/lib/aarch64-linux-gnu/" 2>/dev/null || true
    [[ -e $testroot.partial/usr/lib/ld-linux-aarch64.so.1 ]] && cp -L "$testroot.partial/usr/lib/ld-linux-aarch64.so.1" "$testroot.partial/lib/ld-linux-aarch64.so.1"
    touch "$testroot.partial/.swell-complete"
    mv "$testroot.partial" "$testroot"
}

# arm64_chroot COMMAND...: runs COMMAND in the toolchain root, in this repository (bind-mounted at
# its own path, so the paths SwiftPM records are the same inside and out), with /proc and /dev.
# pkg-config answers for the sysroot (SWELL_ARM64_ROOT_NAME=testroot: the test root), with its
# paths prefixed by it, so they match the linker's --sysroot.
# The mounts live only as long as the command, in a private mount namespace (unshare), so no
# mount outlives it: `rm -rf .build` must never reach the repository or /dev through the root.
arm64_chroot() {
    local root repo
    root=$(pwd)/$SWELL_ARM64_DIR/toolchain
    repo=$(pwd)
    mkdir -p "$root$repo"
    unshare --mount --propagation private bash -c '
        set -e
        root=$1 repo=$2 sysroot=$3
        shift 3
        mount --bind "$repo" "$root$repo"
        mount -t proc proc "$root/proc"
        mount --bind /dev "$root/dev"
        exec chroot "$root" env -i PATH=/usr/bin:/bin HOME=/root TMPDIR=/tmp LANG=C.UTF-8 \
            PKG_CONFIG_SYSROOT_DIR="$sysroot" \
            PKG_CONFIG_PATH="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig:$sysroot/usr/share/pkgconfig" \
            bash -c "cd \"\$1\" && shift && exec \"\$@\"" - "$repo" "$@"
    ' - "$root" "$repo" "$repo/$SWELL_ARM64_DIR/${SWELL_ARM64_ROOT_NAME:-sysroot}" "$@"
}

# write_arm64_sdk NAME ROOT: a Swift SDK bundle .build/arm64/sdks/NAME.artifactbundle that ties
# the compiler, the arm64 runtime and the sysroot ROOT together (swift build --swift-sdks-path
# .build/arm64/sdks --swift-sdk NAME). Rewritten each time: it is small, and holds this
# checkout's absolute paths.
write_arm64_sdk() {
    local name=$1 root dir bundle sdk
    dir=$(pwd)/$SWELL_ARM64_DIR
    root=$(cd "$2" && pwd)
    bundle=$dir/sdks/$name.artifactbundle
    sdk=$bundle/$name
    mkdir -p "$sdk"
    # The linker looks for swiftrt.o and the runtime's libraries under the sysroot's usr/lib.
    ln -sfn "$dir/runtime/lib/swift_static" "$root/usr/lib/swift_static"
    ln -sfn "$dir/runtime/lib/swift" "$root/usr/lib/swift"
    cat >"$bundle/info.json" <<JSON
{"schemaVersion": "1.0", "artifacts": {"$name": {"type": "swiftSDK", "version": "${SWELL_SWIFT62_VERSION%%-*}",
  "variants": [{"path": "$name"}]}}}
JSON
    cat >"$sdk/swift-sdk.json" <<JSON
{"schemaVersion": "4.0", "targetTriples": {"$SWELL_ARM64_TRIPLE": {
  "sdkRootPath": "$root",
  "swiftResourcesPath": "$dir/runtime/lib/swift",
  "swiftStaticResourcesPath": "$dir/runtime/lib/swift_static",
  "toolsetPaths": ["toolset.json"]}}}
JSON
    cat >"$sdk/toolset.json" <<JSON
{"schemaVersion": "1.0", "rootPath": "/usr/libexec/swift/bin",
  "swiftCompiler": {"extraCLIOptions": ["-use-ld=lld"]}, "linker": {"path": "ld.lld"}}
JSON
}

# ensure_arm64_sdk: the SDK swell is built with (swell-arm64: Debian 12's sysroot), and the glibc
# 2.36 compatibility object (scripts/arm64/glibc-2.36-compat.c says why).
ensure_arm64_sdk() {
    ensure_packages binutils-aarch64-linux-gnu qemu-user-static
    ensure_arm64_toolchain
    ensure_arm64_runtime
    ensure_arm64_sysroot
    write_arm64_sdk swell-arm64 "$SWELL_ARM64_DIR/sysroot"
    local compat
    compat=$(pwd)/$SWELL_ARM64_DIR/compat/glibc-2.36-compat.o
    mkdir -p "$(dirname "$compat")"
    if [[ ! -s $compat || scripts/arm64/glibc-2.36-compat.c -nt $compat ]]; then
        arm64_chroot /usr/libexec/swift/bin/clang --target=aarch64-linux-gnu --sysroot="$(pwd)/$SWELL_ARM64_DIR/sysroot" \
            -O2 -Wall -Wextra -Werror -fPIC -c scripts/arm64/glibc-2.36-compat.c -o "$compat.tmp" && mv "$compat.tmp" "$compat"
    fi
}

# ensure_arm64_test_sdk: the SDK the test bundle is built with (swell-arm64-tests: the test root),
# as it links the dynamic runtime, which needs glibc 2.38 and later.
ensure_arm64_test_sdk() {
    ensure_arm64_sdk
    ensure_arm64_testroot
    write_arm64_sdk swell-arm64-tests "$SWELL_ARM64_DIR/testroot"
}

# arm64_swift_build SDK ARGS...: swift build for aarch64 in the toolchain root with the SDK
# swell-arm64 or swell-arm64-tests (after ensure_arm64_sdk or ensure_arm64_test_sdk).
arm64_swift_build() {
    local sdk=$1
    shift
    local root=sysroot
    [[ $sdk == swell-arm64-tests ]] && root=testroot
    SWELL_ARM64_ROOT_NAME=$root arm64_chroot swift build --swift-sdks-path "$(pwd)/$SWELL_ARM64_DIR/sdks" --swift-sdk "$sdk" "$@"
}

# arm64_binfmt_on: lets this kernel run aarch64 programs by themselves (and so in a chroot of an
# arm64 root: debootstrap's second stage, apt-get's maintainer scripts, the package test), through
# qemu-aarch64-static and binfmt_misc. There is no systemd-binfmt here, so this does its job:
# mounts binfmt_misc if needed and registers the line of /usr/lib/binfmt.d/qemu-aarch64.conf with
# the F flag (the kernel opens the interpreter now, so it works in a chroot without qemu inside).
# The kernel's table is shared by everyone on the machine: each caller leaves a pid file in
# /run/swell-binfmt/users, and arm64_binfmt_off unregisters only what an on call registered, and
# only when no other live caller still uses it (a caller that died without off is skipped).
SWELL_BINFMT_STATE=/run/swell-binfmt
arm64_binfmt_on() {
    local dir=/proc/sys/fs/binfmt_misc conf=/usr/lib/binfmt.d/qemu-aarch64.conf line
    ensure_packages qemu-user-static
    [[ -r $conf ]] || { echo "arm64: $conf is missing (reinstall qemu-user-static)" >&2; return 69; }
    mkdir -p "$SWELL_BINFMT_STATE/users"
    exec {_swell_binfmt_lock}>"$SWELL_BINFMT_STATE/lock"
    flock "$_swell_binfmt_lock"
    if [[ ! -e $dir/register ]]; then
        mount -t binfmt_misc binfmt_misc "$dir" ||
            { flock -u "$_swell_binfmt_lock"; echo "arm64: cannot mount binfmt_misc at $dir (needs root and a kernel with binfmt_misc)" >&2; return 69; }
        : >"$SWELL_BINFMT_STATE/mounted"
    fi
    if [[ ! -e $dir/qemu-aarch64 ]]; then
        line=$(grep -v '^#' "$conf" | head -1)
        # The F flag (fix binary) is what makes the interpreter usable inside chroots.
        [[ ${line##*:} == *F* ]] || line+=F
        printf '%s' "$line" >"$dir/register" ||
            { flock -u "$_swell_binfmt_lock"; echo "arm64: registering qemu-aarch64 in $dir/register failed" >&2; return 69; }
        : >"$SWELL_BINFMT_STATE/registered"
    fi
    # One line per call: on and off nest (ensure_debian_root arm64 inside a caller's on and off).
    echo on >>"$SWELL_BINFMT_STATE/users/$$"
    flock -u "$_swell_binfmt_lock"
    exec {_swell_binfmt_lock}>&-
}

# arm64_binfmt_off: undoes what arm64_binfmt_on added, once no other caller's process is alive.
arm64_binfmt_off() {
    local dir=/proc/sys/fs/binfmt_misc user
    [[ -d $SWELL_BINFMT_STATE/users ]] || return 0
    exec {_swell_binfmt_lock}>"$SWELL_BINFMT_STATE/lock"
    flock "$_swell_binfmt_lock"
    local mine=$SWELL_BINFMT_STATE/users/$$
    if [[ -s $mine ]] && (($(wc -l <"$mine") > 1)); then
        sed -i '$d' "$mine"
        flock -u "$_swell_binfmt_lock"
        exec {_swell_binfmt_lock}>&-
        return 0
    fi
    rm -f "$mine"
    for user in "$SWELL_BINFMT_STATE"/users/*; do
        [[ -e $user ]] || continue
        kill -0 "${user##*/}" 2>/dev/null && { flock -u "$_swell_binfmt_lock"; exec {_swell_binfmt_lock}>&-; return 0; }
        rm -f "$user"
    done
    if [[ -e $SWELL_BINFMT_STATE/registered ]]; then
        [[ -e $dir/qemu-aarch64 ]] && echo -1 >"$dir/qemu-aarch64"
        rm -f "$SWELL_BINFMT_STATE/registered"
    fi
    if [[ -e $SWELL_BINFMT_STATE/mounted ]]; then
        umount "$dir" 2>/dev/null || true
        rm -f "$SWELL_BINFMT_STATE/mounted"
    fi
    flock -u "$_swell_binfmt_lock"
    exec {_swell_binfmt_lock}>&-
}

# ensure_arm64_dpkg_db: a dpkg database (admindir) describing the sysroot, for dpkg-shlibdeps.
# The sysroot is unpacked with dpkg -x, so no dpkg knows what it holds; dpkg-shlibdeps asks
# `dpkg-query --search` which package owns each library it finds (under the sysroot, through -l),
# then reads that package's symbols or shlibs file. So the database made here has, for each .deb
# the sysroot was unpacked from, a status entry (its control fields, "install ok installed") and
# info/PACKAGE[:arm64].{list,symbols,shlibs}, the list naming the files at their path in the
# sysroot (/work/…/.build/arm64/sysroot/usr/lib/…), which is what dpkg-query is asked about.
# Cached in .build/arm64/dpkg-db; made again when the sysroot's package versions or path change.
# Prints the admindir's path.
ensure_arm64_dpkg_db() {
    ensure_arm64_sysroot
    local db=$SWELL_ARM64_DIR/dpkg-db sysroot stamp archives=$SWELL_ARM64_DIR/apt/bookworm/archives
    sysroot=$(cd "$SWELL_ARM64_DIR/sysroot" && pwd)
    stamp=$(printf '%s\n' "$sysroot" && cat "$SWELL_ARM64_DIR/sysroot/versions.txt")
    if [[ -e $db/.swell-stamp ]] && [[ $(cat "$db/.swell-stamp") == "$stamp" ]]; then
        echo "$db"
        return 0
    fi
    echo "arm64: the dpkg database of $SWELL_ARM64_DIR/sysroot (for dpkg-shlibdeps) into $db" >&2
    local partial=$db.partial name deb package multiarch infoname control
    rm -rf "$partial" "$db"
    mkdir -p "$partial"/{info,updates,triggers} "$partial/tmp.ci"
    : >"$partial/status"
    printf 'amd64\narm64\n' >"$partial/arch"
    # The multiarch layout of info/ (PACKAGE:ARCH.list), which dpkg assumes only when told.
    echo 1 >"$partial/info/format"
    while read -r name; do
        deb=$archives/$name.deb
        [[ -f $deb ]] || { echo "arm64: $deb (listed in sysroot/versions.txt) is missing: remove $SWELL_ARM64_DIR/sysroot to make it again" >&2; return 65; }
        control=$(dpkg-deb -f "$deb")
        package=$(sed -n 's/^Package: //p' <<<"$control")
        multiarch=$(sed -n 's/^Multi-Arch: //p' <<<"$control")
        # dpkg names the info files of Multi-Arch: same packages with their architecture.
        infoname=$package
        [[ $multiarch == same ]] && infoname=$package:arm64
        { sed -n '1,/^Package: /p' <<<"$control"; echo "Status: install ok installed"; sed '1,/^Package: /d' <<<"$control"; echo; } >>"$partial/status"
        dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\./$|/.|' -e 's|^\./|/|' -e 's|\(.\)/$|\1|' -e "s|^/\([^.]\)|$sysroot/\1|" >"$partial/info/$infoname.list"
        rm -rf "$partial/tmp.ci"
        dpkg-deb -e "$deb" "$partial/tmp.ci"
        local file
        for file in symbols shlibs; do
            [[ -f $partial/tmp.ci/$file ]] && cp "$partial/tmp.ci/$file" "$partial/info/$infoname.$file"
        done
    done <"$SWELL_ARM64_DIR/sysroot/versions.txt"
    rm -rf "$partial/tmp.ci"
    printf '%s\n' "$stamp" >"$partial/.swell-stamp"
    mv "$partial" "$db"
    echo "$db"
}
