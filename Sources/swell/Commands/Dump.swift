import SwellOutput
import SwellPlayer
import SwellRaster
import SwellScenes
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

let dumpVerb = Verb(
    name: "dump",
    summary: "render frames of a scene to raw XRGB8888 files and a manifest",
    synopsis:
        "SCENE|FILE.json --size WxH --frames A..B [--fps N] [--input SCRIPT.json] -o DIR [--png] "
        + "[--canvas WxH --viewport X,Y,W,H] [--at \"YYYY-MM-DD HH:MM\" [--every SECONDS] [--connector NAME]]",
    details: """
        Renders frames A to B (inclusive; frame n is at time n / fps seconds) of a built-in scene
        (all defaults; see 'swell scenes') or a scene file, on a stepped clock, so the same command
        writes the same bytes every time (a text element's clock reads a fixed wall clock:
        2026-01-01 12:00:00 UTC at frame 0). Each frame is DIR/frame-000123.raw: raw XRGB8888, width*4
        bytes a row, bytes B, G, R, X — play them with
          cat DIR/frame-*.raw | ffmpeg -f rawvideo -pix_fmt bgr0 -s WxH -r FPS -i - out.mp4
        --png also writes DIR/frame-000123.png. DIR/manifest.json (format swell-dump/1: size, stride,
        pixel format, fps, each frame's time and FNV-1a checksum, the command line) is written last
        and atomically; an older manifest is removed first, so a dump cut short never looks complete.
        --input gives timed touches (format touches/1):
          {"format": "touches/1", "events": [
            {"time": 0.5, "type": "down", "finger": 0, "x": 100, "y": 80},
            {"time": 0.6, "type": "move", "finger": 0, "x": 110, "y": 82},
            {"time": 0.7, "type": "up", "finger": 0}]}
        With --canvas and --viewport the scene is laid out for the canvas and each frame is the
        viewport's tile of it (a video wall's box; --size may then be left out, or must be the
        viewport's size); touches are in canvas pixels. Tiles of one frame, side by side, are the
        canvas's frame byte for byte.
        --at sets the wall-clock time of frame 0 (local time: TZ, or a kiosk file's "timeZone"), which
        text clocks read, and --every S puts frame n at --at plus n*S seconds (a frame every hour of a
        week: --every 3600 --frames 0..167). FILE may be a kiosk file (kiosk/1): each frame is what its
        output (--connector, else its first) shows at that time, as the running kiosk shows it: the
        schedule's choice, dated from the start of its window (a playlist shows the item it would
        have reached), or a black frame where the schedule turns the screen off. The manifest then
        gives each frame's local time and content ("local", "shows").
        Exit status: 0 done, 64 usage error, 65 invalid scene file or script, 66 unreadable input,
        73 cannot write the output.
        """,
    options: [
        .option("size", "WxH", "frame size in pixels, such as 320x180"),
        .option("frames", "A..B", "the frames to render, inclusive (or one number)"),
        .option("fps", "N", "frames per second of the stepped clock (default 30)"),
        .option("input", "SCRIPT", "timed touches (touches/1 JSON)"),
        .option("output", "DIR", "the folder to write (-o); created if missing"),
        .flag("png", "also write each frame as PNG"),
        .option("at", "TIME", "the local wall-clock time of frame 0, \"YYYY-MM-DD HH:MM[:SS]\""),
        .option("every", "SECONDS", "a frame every SECONDS of wall-clock time (with --at) instead of 1/fps"),
        .option("connector", "NAME", "a kiosk file's output to dump (default: its first)"),
    ] + wallOptions,
    run: runDump)

/// "A..B" or "N" → an inclusive range of frame numbers.
func parseFrameRange(_ text: String) throws -> ClosedRange<Int> {
    let parts = text.split(separator: ".", omittingEmptySubsequences: true)
    let failure = CommandFailure(
        ExitStatus.usage, "--frames wants A..B (such as 0..89) or one frame number, not '\(text)'")
    if parts.count == 1, !text.contains("."), let n = Int(parts[0]), n >= 0 { return n...n }
    guard parts.count == 2, text.contains(".."), let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, a <= b,
        b - a < 10_000_000
    else { throw failure }
    return a...b
}

private func runDump(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.count == 1 else {
        throw CommandFailure(
            ExitStatus.usage, "expected one scene name or scene file, got \(arguments.positional.count)")
    }
    let viewport = try viewportOption(arguments)
    guard let size = try arguments.size("size") ?? viewport.map({ ($0.width, $0.height) }) else {
        throw CommandFailure(ExitStatus.usage, "missing --size WxH")
    }
    try checkViewport(viewport, width: size.width, height: size.height, of: "--size")
    guard let framesText = arguments["frames"] else { throw CommandFailure(ExitStatus.usage, "missing --frames A..B") }
    let frames = try parseFrameRange(framesText)
    let fps = try arguments.integer("fps", default: 30, in: 1...1000)
    guard let folder = arguments["output"] else { throw CommandFailure(ExitStatus.usage, "missing -o DIR") }
    let file = arguments.positional[0]
    // A kiosk file's time zone comes first: --at is read in it.
    let plan = isKioskFile(file) ? try loadKioskPlan(file) : nil
    if let plan { try useScheduleTimeZone(plan, file: file) }
    let start = try arguments["at"].map(parseDumpTime) ?? WallClock.dumpClock.epochAtZero
    let every = try arguments["every"].map(parseEvery)
    var source = try dumpSource(arguments, file: file, plan: plan, viewport: viewport, start: start)

    do {
        try makeDirectory(folder)
    } catch {
        if error != .exists {
            throw CommandFailure(ExitStatus.cannotCreate, "\(folder): cannot create folder: \(error.message)")
        }
    }
    let manifestPath = folder + "/manifest.json"
    do {
        try removeFile(manifestPath)
    } catch {
        if error != .noEntry {
            throw CommandFailure(
                ExitStatus.cannotCreate, "\(manifestPath): cannot remove the old manifest: \(error.message)")
        }
    }

    let buffer = PixelBuffer(width: size.width, height: size.height)
    let clock = SteppedClock(framesPerSecond: Double(fps))
    var entries: [DumpManifest.FrameEntry] = []
    entries.reserveCapacity(frames.count)
    var progress = ProgressBar(total: frames.count, label: "dump")
    var renderMilliseconds: [Double] = []
    renderMilliseconds.reserveCapacity(frames.count)
    for (done, index) in frames.enumerated() {
        let time = every.map { Double(index) * $0 } ?? clock.time(ofFrame: index)
        let started = monotonicSeconds()
        var entry = DumpManifest.FrameEntry(
            index: index, file: DumpManifest.fileName(frame: index), time: time, checksum: 0)
        switch source {
        case .scene(var playback):
            playback.render(at: time, into: buffer.surface)
            source = .scene(playback)
        case .kiosk(var dump):
            entry.shows = try dump.render(wall: start + time, start: start, into: buffer.surface)
            entry.local = describeLocal(start + time)
            source = .kiosk(dump)
        }
        renderMilliseconds.append((monotonicSeconds() - started) * 1000)
        try writeImage(buffer.surface, to: folder + "/" + entry.file, as: .raw)
        if arguments.has("png") {
            try writeImage(
                buffer.surface, to: folder + "/" + DumpManifest.fileName(frame: index, extension: "png"), as: .png)
        }
        entry.checksum = checksum(buffer.surface)
        entries.append(entry)
        progress.update(done + 1)
    }
    withExtendedLifetime(buffer) {}  // the loop reads it through `buffer.surface`, a non-owning view
    progress.finish()
    let manifest = DumpManifest(
        width: size.width, height: size.height, fps: Double(fps), command: CommandLine.arguments, frames: entries)
    try writeText(manifest.encoded(), to: manifestPath)
    renderMilliseconds.sort()
    print("wrote \(entries.count) frames of \(size.width)x\(size.height) to \(folder) (manifest.json last)")
    print(
        "render time per frame: median \(formatMilliseconds(percentile(renderMilliseconds, 0.5))) ms, "
            + "p95 \(formatMilliseconds(percentile(renderMilliseconds, 0.95))) ms")
    return ExitStatus.success
}

/// What `swell dump` draws: a scene with its touches, or a kiosk file's output.
private enum DumpSource {
    case scene(ScriptedPlayback)
    case kiosk(KioskDump)
}

/// The kiosk file `plan`'s output (`--connector`), or the scene `file` with its touches, its
/// text clocks reading `start` at frame 0 (local time when --at gave it; UTC by default).
private func dumpSource(
    _ arguments: ParsedArguments, file: String, plan: KioskPlan?, viewport: Viewport?, start: Double
) throws -> DumpSource {
    if let plan {
        guard arguments["input"] == nil, viewport == nil else {
            throw CommandFailure(ExitStatus.usage, "--input, --canvas and --viewport go with a scene, not a kiosk file")
        }
        let index = try KioskDump.outputIndex(of: plan, connector: arguments["connector"], file: file)
        return .kiosk(KioskDump(plan: plan, index: index))
    }
    guard arguments["connector"] == nil else {
        throw CommandFailure(ExitStatus.usage, "--connector chooses an output of a kiosk file; \(file) is a scene")
    }
    let player = try loadScenePlayer(file)
    player.use(arguments["at"] == nil ? WallClock.dumpClock : WallClock(epochAtZero: start, fixedOffset: nil))
    player.viewport = viewport
    let script = try arguments["input"].map(loadTouchScript) ?? TouchScript(events: [])
    return .scene(ScriptedPlayback(player: player, script: script))
}

/// `--at`'s "YYYY-MM-DD HH:MM[:SS]" as Unix time in the local zone (a time the clocks skip or
/// say twice taken as a schedule takes it, with a note).
private func parseDumpTime(_ text: String) throws -> Double {
    let (unix, note) = try WrittenTime(text, option: "at").instant(zone: "the local time zone")
    if let note { printNow("note: " + note) }
    return unix
}

/// `--every`: seconds of wall-clock time between frames.
private func parseEvery(_ text: String) throws -> Double {
    guard let seconds = Double(text), seconds.isFinite, seconds > 0, seconds <= 366 * 86_400 else {
        throw CommandFailure(
            ExitStatus.usage, "--every wants seconds between frames (more than 0, at most a year), not '\(text)'")
    }
    return seconds
}
