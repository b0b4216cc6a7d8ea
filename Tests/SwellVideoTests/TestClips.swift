import Foundation
import SwellRaster
import SwellVideo

/// Test media, made by Debian's `ffmpeg` command from its `testsrc2` source (moving colour
/// bars with the time and the frame number burnt in): nothing large is committed. Clips are made
/// once per test process, in a temporary folder.
enum TestClips {
    /// A clip of `seconds` at `fps`, `width`×`height`, in `codec` (an ffmpeg encoder name) inside
    /// `container` (the file's extension), with a key frame every `keyEvery` pictures. Extra
    /// arguments go before the output (colour flags, say).
    static func make(
        _ name: String, width: Int = 320, height: Int = 240, fps: Int = 25, seconds: Double = 2,
        codec: String = "libx264", container: String = "mp4", keyEvery: Int = 12, extra: [String] = []
    ) throws -> String {
        let path = folder + "/" + name + "." + container
        if FileManager.default.fileExists(atPath: path) { return path }
        var arguments = [
            "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
            "-i", "testsrc2=size=\(width)x\(height):rate=\(fps):duration=\(seconds)",
            "-c:v", codec, "-pix_fmt", "yuv420p", "-g", String(keyEvery),
        ]
        if codec == "libvpx-vp9" { arguments += ["-deadline", "realtime", "-cpu-used", "8"] }
        if codec == "libaom-av1" { arguments += ["-cpu-used", "8", "-row-mt", "1"] }
        if codec == "libx265" { arguments += ["-x265-params", "log-level=error"] }
        try ffmpeg(arguments + extra + [path + ".part." + container])
        try FileManager.default.moveItem(atPath: path + ".part." + container, toPath: path)
        return path
    }

    /// FFmpeg's own decode of the picture at `seconds`, converted to B, G, R, X bytes
    /// (`ffmpeg -ss … -frames:v 1 -pix_fmt bgr0`), `width`×`height` tightly packed.
    static func reference(_ clip: String, at seconds: Double, scale: String? = nil) throws -> [UInt8] {
        let out = folder + "/ref-\(UUID().uuidString).raw"
        var arguments = ["-hide_banner", "-loglevel", "error", "-y", "-ss", String(seconds), "-i", clip]
        if let scale { arguments += ["-vf", scale] }
        arguments += ["-frames:v", "1", "-pix_fmt", "bgr0", "-f", "rawvideo", out]
        try ffmpeg(arguments)
        defer { try? FileManager.default.removeItem(atPath: out) }
        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: out)))
    }

    static func ffmpeg(_ arguments: [String]) throws {
        let run = try runProgram("/usr/bin/ffmpeg", arguments)
        guard run.status == 0 else {
            throw ClipError(description: "ffmpeg \(arguments.joined(separator: " ")): " + run.stderr)
        }
    }

    /// Runs a program to its end: its exit status and what it wrote.
    static func runProgram(_ path: String, _ arguments: [String]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        let errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let said = out.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: said, as: UTF8.self),
            String(decoding: complained, as: UTF8.self)
        )
    }

    /// The built `swell` command, beside the test bundle.
    static func swell(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return try runProgram(bundle.appendingPathComponent("swell").path, arguments)
    }

    static let folder: String = {
        let path = NSTemporaryDirectory() + "swell-video-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    struct ClipError: Error, CustomStringConvertible { let description: String }
}

/// Channel differences between a frame and tightly packed B, G, R, X reference bytes (X ignored).
struct ChannelDifference {
    var maximum = 0
    var mean = 0.0

    init(_ surface: PixelSurface, _ reference: [UInt8]) {
        var total = 0
        var count = 0
        for y in 0..<surface.height {
            let row = surface.row(y)
            for x in 0..<surface.width {
                let pixel = row[x]
                let at = (y * surface.width + x) * 4
                for channel in 0..<3 {
                    let ours = Int((pixel >> (8 * UInt32(channel))) & 0xFF)
                    let difference = abs(ours - Int(reference[at + channel]))
                    maximum = max(maximum, difference)
                    total += difference
                    count += 1
                }
            }
        }
        mean = Double(total) / Double(max(count, 1))
    }
}
