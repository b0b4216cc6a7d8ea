// swift-tools-version:6.0
// Swell: SIMD-rasterised waves, ripples and elastic shapes for Linux kiosk screens.
//
// Module layering (each depends only on the ones above it):
//   SwellSystem    – the system layer: file descriptors, errno messages, the clocks, whole-file
//                    reads, folders, file status and versions, mkdir, unlink, atomic writes, mmap,
//                    poll, inotify, sockets (uevents, sd_notify), threads and locks (typed wrappers;
//                    the C calls in Internals/). No other Swift target calls the C library's system
//                    calls: scripts/check-syscalls keeps it so.
//   SwellRaster    – pixel buffer, colour, compositing, SIMD kernels, the banded renderer and its
//                    worker threads (SwellSystem's; no Foundation, no I/O)
//   SwellJSON      – a small strict JSON reader that reports JSON paths (no Foundation)
//   SwellText      – fonts (fontconfig, FreeType), shaping (HarfBuzz, FriBiDi), line breaking
//                    (libunibreak), cached glyph masks and shaped runs, turned into raster glyph
//                    runs (no Foundation)
//   SwellDrawList  – the `drawlist/1` format: parse + validate into raster ops
//   SwellOutput    – sinks: raw XRGB8888 files, PNG (libpng), atomic file writes; reading PNG
//                    (huge ones shrunk row by row) and JPEG (libjpeg) pictures
//   SwellScenes    – animation engine, the built-in scenes, scene files and playlists, frame diffs (no I/O but
//                    fonts, through SwellText; the clocks, locks and the picture loader's thread it
//                    needs, through SwellSystem)
//   SwellVideo     – video files (FFmpeg's libavformat, libavcodec, libswscale): decoded ahead on
//                    a thread of their own into XRGB frames, shown by time stamp
//   SwellService   – the kiosk as a system service: its errors, stop and screen signals, systemd's
//                    notifications, the journal's lines
//   SwellDisplay   – presenters behind one protocol (DRM/KMS, fbdev, memory), the VT console,
//                    display hotplug
//   SwellInput     – evdev touch screens, tablets and mice: calibration, routing to outputs
//   SwellLoop      – the kiosk loop (input → content → render → present, per output), screen
//                    power and each output's screen hours (night hours, a schedule's "off"
//                    windows; woken when the wall clock is set), spans, followed files
//   SwellAPI       – management from a browser: an HTTP(S) server (libmicrohttpd, GnuTLS) beside
//                    the render loop, bearer tokens (libsodium's crypto_pwhash), the API's routes,
//                    the content folder's confined files, the page; it reaches the kiosk through
//                    one protocol (`KioskControl`) and knows nothing of scenes or displays
//   SwellPlayer    – what a kiosk runs: the kiosk file (`kiosk/1`) as one typed plan, schedules
//                    (`schedule/1`) and the content they choose, and a scene as the kiosk loop's
//                    content (reloads, realtime clock, replay, followed files)
//   swell          – the command-line tool
// Tuning flags (e.g. -Xcc -march=native) are passed on the command line by scripts/, never
// as unsafeFlags here, so the package stays usable as a dependency.
// The benchmarks (RasterBench, VideoConvertBench) are a package of their own,
// Benchmarks/Package.swift, which depends on this one by path: the libraries only a benchmark
// needs (its reference renderer's) are named there, so building swell never asks for them.
import PackageDescription

let package = Package(
    name: "Swell",
    products: [
        .executable(name: "swell", targets: ["swell"]),
        // For the benchmarks' package (Benchmarks/Package.swift), which depends on this one by path.
        .library(name: "SwellRaster", targets: ["SwellRaster"]),
        .library(name: "SwellDrawList", targets: ["SwellDrawList"]),
        .library(name: "SwellOutput", targets: ["SwellOutput"]),
        .library(name: "SwellText", targets: ["SwellText"]),
        .library(name: "SwellScenes", targets: ["SwellScenes"]),
    ],
    targets: [
        // C libraries from Debian packages, found through pkg-config.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CFriBiDi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CUnibreak", pkgConfig: "libunibreak", providers: [.apt(["libunibreak-dev"])]),
        // libavformat's flags name the include folder of every FFmpeg library (module.modulemap links them).
        .systemLibrary(
            name: "CFFmpeg", pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev"])]),
        // What Swift cannot call directly: variadic ioctl, the EVIOC*/FBIO* request macros, signal
        // handlers, mallopt.
        .target(name: "CSysShims"),
        // libjpeg(-turbo), Debian's libjpeg-dev, behind C wrappers: its errors must longjmp.
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),
        // libpng's classic API a row at a time (huge PNGs shrunk as they are read): errors longjmp too.
        .target(name: "CPNGRows", linkerSettings: [.linkedLibrary("png16")]),
        // The CPU's spin-wait hint (x86 `pause`) for SwellRaster's worker pool.
        .target(name: "CSpin"),
        // The management API's HTTP(S) server: libmicrohttpd (HTTPS through GnuTLS) behind C
        // wrappers for its variadic calls; libsodium hashes the API's tokens; GnuTLS makes the
        // self-signed certificate a kiosk without one of its own serves.
        .target(name: "CHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),

        // libm: the standard library's rounding and sqrt call it when Foundation is not linked.
        .target(name: "SwellSystem", dependencies: ["CSysShims"]),
        .target(name: "SwellRaster", dependencies: ["CSpin", "SwellSystem"], linkerSettings: [.linkedLibrary("m")]),
        .target(name: "SwellJSON"),
        .target(
            name: "SwellText",
            dependencies: [
                "SwellRaster", "SwellSystem", "CFreeType", "CHarfBuzz", "CFontconfig", "CFriBiDi", "CUnibreak",
            ]),
        .target(name: "SwellDrawList", dependencies: ["SwellRaster", "SwellJSON", "SwellSystem", "SwellText"]),
        .target(name: "SwellOutput", dependencies: ["SwellRaster", "SwellSystem", "CPNG", "CJPEG", "CPNGRows"]),
        .target(name: "SwellScenes", dependencies: ["SwellRaster", "SwellJSON", "SwellSystem", "SwellText"]),
        // Video files: demuxed and decoded by FFmpeg on a thread of their own, converted to XRGB.
        .target(name: "SwellVideo", dependencies: ["SwellRaster", "SwellSystem", "CFFmpeg"]),
        // Kiosk output: DRM/KMS and fbdev presenters, the VT console, evdev input, the frame loop.
        // The kiosk as a system service: its errors (kinds that map onto exit statuses), the stop
        // and screen signals, systemd's notifications and the journal's lines.
        .target(name: "SwellService", dependencies: ["SwellSystem", "CSysShims"]),
        // The display: presenters (DRM/KMS, fbdev, memory) behind one protocol, the VT console,
        // display hotplug.
        .target(
            name: "SwellDisplay", dependencies: ["SwellService", "SwellRaster", "SwellSystem", "CDRM", "CSysShims"]),
        // The input: evdev touch screens, tablets and mice, their calibration and routing to outputs.
        .target(name: "SwellInput", dependencies: ["SwellDisplay", "SwellService", "SwellSystem", "CSysShims"]),
        // The loop: input → content → render → present, per output; screen power, spans, followed files.
        .target(
            name: "SwellLoop",
            dependencies: ["SwellDisplay", "SwellInput", "SwellService", "SwellRaster", "SwellSystem"]),
        // What a kiosk runs: its plan (the kiosk file) and a scene as the loop's content.
        .target(
            name: "SwellPlayer",
            dependencies: [
                "SwellLoop", "SwellDisplay", "SwellInput", "SwellService", "SwellScenes", "SwellJSON", "SwellRaster",
                "SwellSystem",
            ]),
        // Management from a browser: the HTTPS API and its page, tokens, the content folder.
        .target(
            name: "SwellAPI",
            dependencies: ["SwellJSON", "SwellSystem", "SwellService", "CHTTPD", "CSodium", "CGnuTLS"]),
        .executableTarget(
            name: "swell",
            dependencies: [
                "SwellRaster", "SwellDrawList", "SwellOutput", "SwellDisplay", "SwellInput", "SwellLoop",
                "SwellService",
                "SwellScenes", "SwellJSON", "SwellSystem",
                "SwellVideo", "SwellPlayer", "SwellAPI", "CSysShims",
            ]),

        .testTarget(
            name: "SwellRasterTests", dependencies: ["SwellRaster", "SwellDrawList", "SwellText", "CFreeType"]),
        .testTarget(name: "SwellDrawListTests", dependencies: ["SwellDrawList", "SwellJSON"]),
        .testTarget(
            name: "SwellTextTests", dependencies: ["SwellText", "SwellRaster", "SwellDrawList", "CFreeType"]),
        // Goldens/ is read through #filePath, not as a bundle resource (no Foundation needed).
        .testTarget(
            name: "SwellScenesTests",
            dependencies: ["SwellScenes", "SwellRaster", "SwellJSON", "SwellOutput", "SwellVideo"],
            exclude: ["Goldens"]),
        .testTarget(
            name: "SwellCLITests",
            dependencies: ["swell", "SwellOutput", "SwellRaster", "SwellDrawList", "CJPEG", "CPNG"],
            // Goldens/cafe-week.txt is read through #filePath.
            exclude: ["Goldens"]),
        // SwellScenes only for the loop following a page's text files, as `swell run` does.
        .testTarget(
            name: "SwellKioskTests",
            dependencies: [
                "SwellDisplay", "SwellInput", "SwellLoop", "SwellService", "SwellRaster", "SwellSystem", "SwellScenes",
                "SwellPlayer", "CDRM",
            ]),
        .testTarget(name: "SwellSystemTests", dependencies: ["SwellSystem"]),
        .testTarget(name: "SwellAPITests", dependencies: ["SwellAPI", "SwellJSON", "SwellSystem"]),
        // `swell` too: the video commands are run as a kiosk owner runs them.
        .testTarget(
            name: "SwellVideoTests",
            dependencies: [
                "swell", "SwellVideo", "SwellRaster", "SwellScenes", "SwellDisplay", "SwellInput", "SwellLoop",
                "SwellService",
            ]),
    ]
)
