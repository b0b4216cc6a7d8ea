import SwellOutput
import SwellRaster
import SwellScenes
import SwellSystem

#if canImport(Glibc)
    import Glibc
#endif

let diffVerb = Verb(
    name: "diff",
    summary: "compare two frames or two dump folders",
    synopsis: "A B [--size WxH] [--tolerance N] [--heatmap FILE.png]",
    details: """
        A and B are two frames (.png, or .raw XRGB8888 which needs --size) or two folders written by
        'swell dump' (their manifests give the size and frames, which must match). Prints the largest
        and mean channel difference, how many pixels differ and the PSNR (per differing frame and in
        total for folders). --heatmap writes where the frames differ (for folders: the worst frame):
        unchanged pixels dim grey, differences from dark red (1) to white (≥ 64).
        Exit status: 0 when no channel differs by more than --tolerance (default 0), 1 when one does,
        2 on bad input (unreadable or truncated files, different sizes or frame lists).
        """,
    options: [
        .option("size", "WxH", "the size of .raw frames"),
        .option("tolerance", "N", "largest channel difference still counted as equal (0...255, default 0)"),
        .option("heatmap", "FILE.png", "write a picture of the differences"),
    ],
    run: runDiff)

private let badInput: Int32 = 2

private func runDiff(_ arguments: ParsedArguments) throws -> Int32 {
    guard arguments.positional.count == 2 else {
        throw CommandFailure(
            badInput, "expected two frames or two dump folders, got \(arguments.positional.count) arguments")
    }
    let tolerance = try arguments.integer("tolerance", default: 0, in: 0...255)
    let size = try arguments.size("size")
    let a = arguments.positional[0]
    let b = arguments.positional[1]
    let difference: FrameDifference
    if isDirectory(atPath: a) || isDirectory(atPath: b) {
        guard isDirectory(atPath: a) && isDirectory(atPath: b) else {
            throw CommandFailure(badInput, "cannot compare a folder with a file")
        }
        difference = try diffDumps(a, b, heatmap: arguments["heatmap"])
    } else {
        let first = try readFrame(a, size: size)
        let second = try readFrame(b, size: size)
        guard first.width == second.width && first.height == second.height else {
            throw CommandFailure(
                badInput,
                "sizes differ: \(a) is \(first.width)x\(first.height), \(b) is \(second.width)x\(second.height)")
        }
        let heat = arguments["heatmap"].map { _ in PixelBuffer(width: first.width, height: first.height) }
        difference = compareFrames(first, second, heatmap: heat)
        if let path = arguments["heatmap"], let heat { try writeImage(heat.surface, to: path, as: .png) }
        print(difference.summary)
    }
    return difference.maxChannel <= tolerance ? ExitStatus.success : 1
}

private func diffDumps(_ a: String, _ b: String, heatmap: String?) throws -> FrameDifference {
    let first = try readManifest(a)
    let second = try readManifest(b)
    guard first.width == second.width && first.height == second.height else {
        throw CommandFailure(
            badInput, "sizes differ: \(a) is \(first.width)x\(first.height), \(b) is \(second.width)x\(second.height)")
    }
    guard first.frames.map(\.index) == second.frames.map(\.index) else {
        throw CommandFailure(
            badInput,
            "the dumps hold different frames (\(first.frames.count) and \(second.frames.count) frames, indices differ)")
    }
    let size = (width: first.width, height: first.height)
    var total = FrameDifference()
    var worst: (index: Int, max: Int) = (-1, -1)
    let heat = heatmap.map { _ in PixelBuffer(width: size.width, height: size.height) }
    let scratch = heatmap.map { _ in PixelBuffer(width: size.width, height: size.height) }
    for (x, y) in zip(first.frames, second.frames) {
        let frameA = try readFrame(a + "/" + x.file, size: size)
        let frameB = try readFrame(b + "/" + y.file, size: size)
        let difference = compareFrames(frameA, frameB, heatmap: scratch)
        if difference.differingPixels > 0 { print("frame \(x.index): \(difference.summary)") }
        if difference.maxChannel > worst.max, let heat, let scratch {
            worst = (x.index, difference.maxChannel)
            withExtendedLifetime(scratch) {
                compositeImage(heat.surface, scratch.surface, alpha: 1, clip: heat.surface.bounds)
            }
        }
        total.add(difference)
    }
    print("\(first.frames.count) frames: \(total.summary)")
    if let heatmap, let heat {
        try writeImage(heat.surface, to: heatmap, as: .png)
        print("heat map of frame \(worst.index) written to \(heatmap)")
    }
    return total
}

private func readManifest(_ folder: String) throws -> DumpManifest {
    let path = folder + "/manifest.json"
    do {
        return try DumpManifest.parse(bytes: try readWholeFile(path), name: path)
    } catch let error as SceneFileError {
        throw CommandFailure(badInput, error.description)
    } catch {
        throw CommandFailure(badInput, "\(path): cannot read (\(error)); is \(folder) a complete 'swell dump' folder?")
    }
}

/// A frame from a .png, or from a .raw of exactly width·height·4 bytes.
private func readFrame(_ path: String, size: (width: Int, height: Int)?) throws -> PixelBuffer {
    if path.hasSuffix(".png") {
        do {
            return try readPNG(path: path)
        } catch {
            throw CommandFailure(badInput, error.description)
        }
    }
    guard let size else { throw CommandFailure(badInput, "\(path): a raw frame needs --size WxH (or use .png)") }
    let bytes: [UInt8]
    do {
        bytes = try readWholeFile(path)
    } catch {
        throw CommandFailure(badInput, "\(path): cannot read: \(error)")
    }
    let expected = size.width * size.height * 4
    guard bytes.count == expected else {
        let what = bytes.count < expected ? "truncated" : "too long"
        throw CommandFailure(
            badInput, "\(path): \(what): \(bytes.count) bytes, but \(size.width)x\(size.height) XRGB8888 is \(expected)"
        )
    }
    let buffer = PixelBuffer(width: size.width, height: size.height)
    bytes.withUnsafeBytes { raw in
        for y in 0..<size.height {
            UnsafeMutableRawPointer(buffer.surface.row(y)).copyMemory(
                from: raw.baseAddress! + y * size.width * 4, byteCount: size.width * 4)
        }
    }
    return buffer
}
