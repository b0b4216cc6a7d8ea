import SwellDisplay
import SwellDrawList
import SwellInput
import SwellJSON
import SwellLoop
import SwellOutput
import SwellRaster
import SwellScenes
import SwellService
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

let benchVerb = Verb(
    name: "bench",
    summary: "measure frame times (p50/p95/p99/max) of draw lists or scenes on this machine",
    synopsis:
        "SCENE|FILE.json [--size WxH | --output drm|fbdev|memory …] [--seconds S | --frames N] [--threads N] "
        + "[--input SCRIPT.json] [--json FILE] [--plot FILE.svg]\n       swell bench --scenes DIR [same options]\n"
        + "       swell bench --drawlists DIR [--frames N] …\n"
        + "       swell bench --display NAME=SCENE --display NAME=SCENE [--size WxH] [--seconds S | --frames N] …",
    details: """
        Runs a scene with its real animation — a stepped clock at the refresh rate and, unless
        --input names a touch script, three fingers dragging circles across the screen (90 ripples
        a second: the pond reaches its 1000-ripple cap after ~11 s) — and reports per frame the render time,
        the present time (copy to the scan-out buffer, flip and the wait for it, when a display is
        used) and their total: min, p50, p95, p99, max, mean, the frames whose render time is over
        the budget of one refresh interval (the display's rate, else --refresh, default 60 Hz) and
        the headroom (budget / p99 of the render time). A frame draws only the rectangles that
        changed since the previous one (nothing when nothing moved); --whole-frames draws each
        whole. Without --output the frames go to memory at --size (default 1920x1080). The last
        frame's checksum is printed (the run is deterministic: clocks on the page show 2026-01-01
        12:00 UTC, as in 'swell dump'), so a change in the pictures is visible. The scene's first
        frame is drawn before the timed ones and reported apart as 'start-up' (it decodes the
        pictures and lays the text out, while a kiosk still shows the console); frame 0 then
        draws only what its touches changed. Work the scene does on other threads (a playlist's
        next item, a slideshow's next picture) gets the idle rest of each frame period, as on a
        kiosk: it is waited for between frames, untimed and reported, up to the end of the period
        of the frame before; what a frame needs that is still not done is waited for in its time.
        --clock-step S holds the animation at time 0 and moves the wall clock S seconds a frame:
        with --clock-step 60, each frame of a page with an HH:MM clock shows a new minute, so its
        frame times against --whole-frames say what a clock's change costs against a full redraw.
        With --scenes DIR, runs every scene file in DIR (*.json, e.g. examples/: one of each
        built-in scene) the same way, 10 s each unless --seconds or --frames say otherwise, on the
        same output, and prints one table and which scenes held the refresh rate.
        With --drawlists DIR, renders each draw list in DIR (*.json, e.g. bench-data/) repeatedly,
        with a plain fill of the same frame (the memory-bandwidth floor) for comparison.
        With two or more --display NAME=SCENE, runs one kiosk's outputs (memory presenters at
        --size, each scene with its own touches) in turn on each step, as the kiosk loop does: each
        output's frame times, their sum per step ('both': all must fit in one refresh to hold the
        rate) and one output alone, measured in the same run interleaved step by step, as the reference.
        A table goes to standard output (with a progress bar on a terminal while it runs);
        --json writes the figures for machines, --plot an SVG of frame time against frame number
        with a histogram. Timing never fails a run; --expect-checksums fails it when a picture changed.
        """,
    options: kioskOutputOptions.filter { $0.name != "save" && $0.name != "seconds" } + [
        .option("seconds", "S", "run the scene for S seconds of animation (default 20)"),
        .option("input", "SCRIPT.json", "touch script to replay (default: three fingers dragging)"),
        .option("scenes", "DIR", "benchmark every scene file (*.json) in DIR, e.g. examples/"),
        .option("drawlists", "DIR", "benchmark every draw list (*.json) in DIR"),
        .option("frames", "N", "frames to render (default: 20 s of the scene, or 100 per draw list)"),
        .option("threads", "N", "render threads (default: one per core)"),
        .option(
            "band-threads", "N",
            "cut a scene's frames into bands as for N threads, drawn on --threads (default: the same): "
                + "what the cut costs without a second core"),
        .flag(
            "per-band-columns",
            "compute a wave stroke's columns in every band it meets, not once per frame (the same pixels; to measure)"),
        .flag(
            "row-bands",
            "draw frames of wave strokes (and layers) in bands of rows, not vertical strips, on several threads "
                + "(the same pixels; to measure)"),
        .option(
            "strip-columns", "N",
            "cut those frames' strips on multiples of N columns, narrowing towards the middle "
                + "(default: one strip a thread; to measure)"),
        .option(
            "pace", "MS",
            "sleep MS milliseconds after each frame, untimed, as a paced kiosk idles between frames "
                + "(the render threads' helpers go to sleep; default: frames back to back)"),
        .flag(
            "late-wake",
            "wake the render helpers when the frame's list is rendered, not as the scene starts building it "
                + "(the same pixels; to measure)"),
        .flag(
            "unpinned-helpers",
            "let the render helpers run on any core, not each on one of its own (the same pixels; to measure)"),
        .option(
            "streaming-fill", "always|never",
            "with --drawlists: write the background rows no command drew in streaming stores always or never "
                + "(default: for frames over half the largest cache; the same pixels; to measure)"),
        .flag("whole-frames", "draw every frame whole (default: only what changed since the previous frame)"),
        .option(
            "clock-step", "S",
            "hold the animation still and move the wall clock S seconds a frame (60: a new minute each frame): "
                + "what a page costs when only its clock changes"),
        .option("refresh", "HZ", "refresh rate that sets the frame budget (default 60)"),
        .option(
            "damage", "X,Y,W,H|diff",
            "present only this rectangle of each frame, or (diff) what changed from the frame before; "
                + "the copy to scan-out memory is timed (the 'copy' row)"),
        .flag("hold", "keep the last frame on the display until SIGTERM or SIGINT (for screenshots)"),
        .option("json", "FILE", "also write the results as JSON"),
        .option("plot", "FILE.svg", "also draw frame time against frame number, with a histogram"),
        .option("expect-checksums", "FILE", "exit 1 if any frame's checksum differs from FILE ('name checksum' lines)"),
        .option(
            "display", "NAME=SCENE",
            "one of several outputs (in memory, at --size), each its own scene or the same; repeatable: "
                + "each output's frame times, and the round of all against one output alone"),
        .option("record-checksums", "FILE", "write each frame's checksum to FILE"),
    ] + wallOptions,
    run: runBench)

/// One benchmarked series: what was measured and its per-frame times.
struct BenchSeries {
    let name: String
    let width: Int
    let height: Int
    let times: FrameTimes
    let checksum: UInt64?
}

private func runBench(_ arguments: ParsedArguments) throws -> Int32 {
    let displays = arguments.values("display")
    if !displays.isEmpty { return try benchOutputs(displays, arguments) }
    if let folder = arguments["scenes"] {
        guard arguments.positional.isEmpty, arguments["drawlists"] == nil else {
            throw CommandFailure(ExitStatus.usage, "--scenes takes no other scene or --drawlists")
        }
        return try benchSceneSuite(folder, arguments)
    }
    guard let folder = arguments["drawlists"] else {
        guard arguments.positional.count == 1 else {
            throw CommandFailure(
                ExitStatus.usage, "say what to measure: a scene (see 'swell scenes'), a scene file, or --drawlists DIR")
        }
        return try benchScene(arguments.positional[0], arguments)
    }
    guard arguments.positional.isEmpty else {
        throw CommandFailure(ExitStatus.usage, "--drawlists takes no other input, got '\(arguments.positional[0])'")
    }
    let frames = try arguments.integer("frames", default: 100, in: 1...1_000_000)
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let refresh = try arguments.integer("refresh", default: 60, in: 1...1000)
    let budget = 1000 / Double(refresh)

    let lists = try jsonFiles(in: folder)
    var results: [BenchSeries] = []
    var glyphCaches: [String] = []
    for path in lists {
        let list = try loadList(path)
        let frame = list.frame
        let name = String(path.split(separator: "/").last!.dropLast(5))
        if let cache = list.typesetter?.glyphs {
            let merged = list.mergedRuns
            glyphCaches.append(
                "glyph cache (\(name)): \(cache.count) masks, \(cache.bytes) of its \(cache.budget) bytes budget; "
                    + "\(merged.count) of \(list.texts.count) text runs merged into line masks, \(merged.bytes) bytes")
        }
        let buffer = PixelBuffer(width: frame.width, height: frame.height)
        let renderer = FrameRenderer(threads: threads)
        switch arguments["streaming-fill"] {
        case nil: break
        case "always": renderer.streamingFillBytes = 0
        case "never": renderer.streamingFillBytes = nil
        case let other?:
            throw CommandFailure(ExitStatus.usage, "--streaming-fill wants always or never, not '\(other)'")
        }
        var progress = ProgressBar(total: frames * 2, label: name)
        // Whole frames (with damage tracking, the same frame again would draw nothing). Warm-up:
        // caches, page faults, reusable storage.
        renderer.render(frame, into: buffer.surface, tracksDamage: false)

        var swell = FrameTimes()
        swell.reserve(frames)
        for index in 0..<frames {
            let start = monotonicSeconds()
            renderer.render(frame, into: buffer.surface, tracksDamage: false)
            swell.render.append((monotonicSeconds() - start) * 1000)
            swell.present.append(0)
            progress.update(index + 1)
        }
        let sum = checksum(buffer.surface)

        var fill = FrameTimes()
        fill.reserve(frames)
        let pixel = frame.background.opaquePixel
        for index in 0..<frames {
            let start = monotonicSeconds()
            for y in 0..<buffer.height { buffer.surface.row(y).update(repeating: pixel, count: buffer.width) }
            fill.render.append((monotonicSeconds() - start) * 1000)
            fill.present.append(0)
            progress.update(frames + index + 1)
        }
        progress.finish()
        results.append(BenchSeries(name: name, width: frame.width, height: frame.height, times: swell, checksum: sum))
        results.append(
            BenchSeries(
                name: name + " (fill floor)", width: frame.width, height: frame.height, times: fill, checksum: nil))
    }
    print(
        "swell bench: \(lists.count) draw lists, \(frames) frames each, \(threads) thread\(threads == 1 ? "" : "s"), budget \(formatMilliseconds(budget)) ms (\(refresh) Hz)"
    )
    try report(results, budget: budget, arguments: arguments, title: "swell bench --drawlists \(folder)")
    for line in glyphCaches { print(line) }
    return try checkChecksums(results, arguments: arguments)
}

/// Records or verifies the rendered frames' checksums: timing never fails a run, a changed
/// picture does.
func checkChecksums(_ results: [BenchSeries], arguments: ParsedArguments) throws -> Int32 {
    let measured = results.compactMap { series in series.checksum.map { (series.name, String($0, radix: 16)) } }
    if let path = arguments["record-checksums"] {
        try writeText(measured.map { "\($0) \($1)\n" }.joined(), to: path)
    }
    guard let path = arguments["expect-checksums"] else { return ExitStatus.success }
    let text: String
    do {
        text = String(decoding: try readWholeFile(path), as: UTF8.self)
    } catch {
        throw CommandFailure(ExitStatus.noInput, "\(path): cannot read: \(error)")
    }
    var expected: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let parts = line.split(separator: " ")
        guard parts.count == 2 else {
            throw CommandFailure(ExitStatus.dataError, "\(path): expected 'name checksum' lines, got '\(line)'")
        }
        expected[String(parts[0])] = String(parts[1])
    }
    var changed = 0
    for (name, sum) in measured {
        guard let want = expected[name] else {
            printError("swell bench: \(name): no recorded checksum in \(path)")
            changed += 1
            continue
        }
        if want != sum {
            printError("swell bench: \(name): the rendered frame changed (checksum \(sum), recorded \(want))")
            changed += 1
        }
    }
    if changed == 0 { print("checksums: all \(measured.count) frames match \(path)") }
    return changed == 0 ? ExitStatus.success : 1
}

/// Prints the table and writes the optional JSON and SVG.
func report(_ results: [BenchSeries], budget: Double, arguments: ParsedArguments, title: String) throws {
    let header = [
        "series", "size", "start-up", "frames", "min", "p50", "p95", "p99", "max", "mean", "over", "headroom",
        "checksum",
    ]
    var rows: [[String]] = []
    var json: [String] = []
    for series in results {
        let total = FrameStatistics(series.times.total, budget: budget)
        let headroom = total.headroom.isFinite ? formatRatio(total.headroom) : "-"
        let sum = series.checksum.map { String($0, radix: 16) } ?? ""
        rows.append([
            series.name, "\(series.width)x\(series.height)", series.times.startup.map(formatMilliseconds) ?? "-",
            "\(total.count)", formatMilliseconds(total.min),
            formatMilliseconds(total.p50), formatMilliseconds(total.p95), formatMilliseconds(total.p99),
            formatMilliseconds(total.max), formatMilliseconds(total.mean), "\(total.overBudget)", headroom, sum,
        ])
        let render = FrameStatistics(series.times.render, budget: budget)
        let present = FrameStatistics(series.times.present, budget: budget)
        json.append(
            "{\"name\": \(jsonString(series.name)), \"width\": \(series.width), \"height\": \(series.height), "
                + "\"checksum\": \(series.checksum.map { jsonString(String($0, radix: 16)) } ?? "null"), "
                + "\"startup_ms\": \(series.times.startup.map(formatMilliseconds) ?? "null"), "
                + "\"render\": \(render.json), \"present\": \(present.json), \"total\": \(total.json)}")
    }
    print(
        "times in ms per frame; 'start-up' = the first frame, drawn before the timed ones; "
            + "'over' = frames over the budget; headroom = budget / p99")
    print(formatTable(header, rows), terminator: "")
    if let path = arguments["json"] {
        let document =
            "{\"budget_ms\": \(formatMilliseconds(budget)), \"series\": [\n  " + json.joined(separator: ",\n  ")
            + "\n]}\n"
        try writeText(document, to: path)
    }
    if let path = arguments["plot"] {
        let svg = frameTimePlot(title: title, series: results.map { ($0.name, $0.times.total) }, budget: budget)
        try writeText(svg, to: path)
    }
}

func writeText(_ text: String, to path: String) throws {
    do {
        try writeFileAtomically(Array(text.utf8), to: path)
    } catch {
        throw CommandFailure(ExitStatus.cannotCreate, error.description)
    }
}

/// The *.json files of a folder (`holding` says what they are, for the error), sorted by name.
func jsonFiles(in folder: String, holding what: String = "draw lists") throws -> [String] {
    guard let names = sortedNames(in: folder, where: { $0.hasSuffix(".json") }) else {
        throw CommandFailure(ExitStatus.noInput, "\(folder): cannot open folder: \(Errno.current.message)")
    }
    guard !names.isEmpty else { throw CommandFailure(ExitStatus.noInput, "\(folder): no *.json \(what) in it") }
    return names.map { folder.hasSuffix("/") ? folder + $0 : folder + "/" + $0 }
}

/// A ratio with two significant digits below 10 ("0.46x", "3.1x") and none above ("120x").
func formatRatio(_ value: Double) -> String {
    if value >= 10 { return "\(Int(value.rounded()))x" }
    // 0.995 and up round to 1.0x (not "0.100x": a hundredth's count of 100 has three digits).
    if value >= 0.995 {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)x"
    }
    let hundredths = Int((value * 100).rounded())
    return "0.\(hundredths < 10 ? "0" : "")\(hundredths)x"
}
