import SwellDrawList
import SwellOutput
import SwellRaster
import SwellSystem

let renderVerb = Verb(
    name: "render",
    summary: "render a draw list to a raw XRGB8888 or PNG file",
    synopsis: "LIST.json -o FILE.raw|FILE.png [--repeat N]",
    details: """
        LIST.json is a drawlist/1 document (see bench-data/README.md). The output format follows the
        file name: .raw is XRGB8888 (bytes B, G, R, X; width*4 bytes a row; view it with
        ffmpeg -f rawvideo -pix_fmt bgr0 -s WxH), .png is 8-bit RGB. The file appears only when it is
        complete. With --repeat N the frame is rendered N times and one line
        'median_ms=X p95_ms=Y' reports the time per frame (-o is then optional).
        Exit status: 0 done, 64 usage error, 65 malformed draw list, 66 unreadable input,
        73 output not writable.
        """,
    options: [
        .option("output", "FILE", "where to write (-o); .raw or .png"),
        .option("repeat", "N", "render N times and print median_ms and p95_ms"),
        .option("threads", "N", "render bands on N threads (default: one per core)"),
        .option("band-rows", "N", "rows per band (default: four bands per thread; the pixels do not change)"),
        .option(
            "band-threads", "N",
            "cut frames into bands as for N threads, drawn on --threads (default: the same): what a cut for "
                + "many cores costs in work, measured without them"),
    ],
    run: runRender)

enum ImageFileKind {
    case raw, png

    init(path: String) throws {
        if path.hasSuffix(".raw") {
            self = .raw
        } else if path.hasSuffix(".png") {
            self = .png
        } else {
            throw CommandFailure(ExitStatus.usage, "cannot tell the format of '\(path)': name it .raw or .png")
        }
    }
}

private func runRender(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.count == 1 else {
        throw CommandFailure(
            ExitStatus.usage,
            arguments.positional.isEmpty
                ? "missing the draw list (LIST.json)"
                : "expected one draw list, got \(arguments.positional.count) arguments")
    }
    let repeats = try arguments.integer("repeat", default: 0, in: 1...1_000_000)
    let outputPath = arguments["output"]
    guard outputPath != nil || repeats > 0 else {
        throw CommandFailure(ExitStatus.usage, "missing -o FILE (.raw or .png)")
    }
    let kind = try outputPath.map { try ImageFileKind(path: $0) }
    let frame = try loadFrame(arguments.positional[0])
    let threads = try arguments.integer("threads", default: onlineCores(), in: 1...256)
    let bandRows = try arguments["band-rows"].map { _ in try arguments.integer("band-rows", default: 0, in: 1...16384) }
    let renderer = FrameRenderer(threads: threads, bandHeight: bandRows)
    if arguments["band-threads"] != nil {
        renderer.bandThreads = try arguments.integer("band-threads", default: threads, in: 1...256)
    }
    let buffer = PixelBuffer(width: frame.width, height: frame.height)
    // Whole frames: with damage tracking, a repeated frame would draw nothing.
    renderer.render(frame, into: buffer.surface, tracksDamage: false)
    if repeats > 0 {
        var milliseconds = [Double]()
        milliseconds.reserveCapacity(repeats)
        for _ in 0..<repeats {
            let start = monotonicSeconds()
            renderer.render(frame, into: buffer.surface, tracksDamage: false)
            milliseconds.append((monotonicSeconds() - start) * 1000)
        }
        milliseconds.sort()
        print(
            "median_ms=\(formatMilliseconds(percentile(milliseconds, 0.5))) p95_ms=\(formatMilliseconds(percentile(milliseconds, 0.95)))"
        )
    }
    if let outputPath, let kind {
        try writeImage(buffer.surface, to: outputPath, as: kind)
    }
    return ExitStatus.success
}

/// Loads a draw list, mapping its errors onto exit statuses (66 unreadable, 65 malformed).
func loadFrame(_ path: String) throws -> DisplayList {
    do {
        return try loadDrawList(path: path)
    } catch {
        throw CommandFailure(error.isUnreadable ? ExitStatus.noInput : ExitStatus.dataError, error.description)
    }
}

/// Loads a draw list with its text ops (for the glyph cache's figures), errors as `loadFrame`.
func loadList(_ path: String) throws -> DrawList {
    do {
        return try loadDrawListDocument(path: path)
    } catch {
        throw CommandFailure(error.isUnreadable ? ExitStatus.noInput : ExitStatus.dataError, error.description)
    }
}

func writeImage(_ surface: PixelSurface, to path: String, as kind: ImageFileKind) throws {
    do {
        switch kind {
        case .raw: try writeRaw(surface, to: path)
        case .png: try writePNG(surface, to: path)
        }
    } catch {
        throw CommandFailure(ExitStatus.cannotCreate, error.description)
    }
}
