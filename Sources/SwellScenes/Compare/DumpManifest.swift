import SwellJSON

/// The `manifest.json` of a frame dump (format `swell-dump/1`): what the frames are and how to
/// read them. `swell dump` writes it last and atomically, so a folder with a manifest holds a
/// complete dump; `swell diff` reads it to compare two dumps.
///
///     {"format": "swell-dump/1", "width": 320, "height": 180, "stride": 1280,
///      "pixelFormat": "XRGB8888", "byteOrder": "B,G,R,X", "ffmpegPixelFormat": "bgr0",
///      "fps": 30, "command": ["swell", "dump", ...],
///      "frames": [{"index": 0, "file": "frame-000000.raw", "time": 0, "checksum": "fnv1a64:…"}, ...]}
///
/// A dump of a kiosk file adds each frame's local time and what it shows ("local", "shows").
///
/// `checksum` is FNV-1a 64 over the frame's packed rows (SwellOutput's `checksum`), in hex.
public struct DumpManifest: Equatable, Sendable {
    public struct FrameEntry: Equatable, Sendable {
        public var index: Int
        public var file: String
        public var time: Double
        public var checksum: UInt64
        /// A dump of a kiosk file: the frame's local wall-clock time and what its schedule shows
        /// then ("lunch.json", "off"); nil otherwise.
        public var local: String?
        public var shows: String?

        public init(
            index: Int, file: String, time: Double, checksum: UInt64, local: String? = nil, shows: String? = nil
        ) {
            self.index = index
            self.file = file
            self.time = time
            self.checksum = checksum
            self.local = local
            self.shows = shows
        }
    }

    public var width: Int
    public var height: Int
    public var fps: Double
    public var command: [String]
    public var frames: [FrameEntry]

    public init(width: Int, height: Int, fps: Double, command: [String], frames: [FrameEntry]) {
        self.width = width
        self.height = height
        self.fps = fps
        self.command = command
        self.frames = frames
    }

    /// Bytes from one row of a raw frame to the next (rows are tightly packed).
    public var stride: Int { width * 4 }

    /// The file name of frame `index`: frame-000123.raw.
    public static func fileName(frame index: Int, extension ext: String = "raw") -> String {
        var digits = String(index)
        while digits.count < 6 { digits = "0" + digits }
        return "frame-\(digits).\(ext)"
    }

    public static func hex(_ value: UInt64) -> String {
        var text = String(value, radix: 16)
        while text.count < 16 { text = "0" + text }
        return "fnv1a64:" + text
    }

    /// The manifest as JSON text, one frame per line.
    public func encoded() -> String {
        var text = "{\n"
        text += "  \"format\": \"swell-dump/1\",\n"
        text += "  \"width\": \(width),\n  \"height\": \(height),\n  \"stride\": \(stride),\n"
        text += "  \"pixelFormat\": \"XRGB8888\",\n  \"byteOrder\": \"B,G,R,X\",\n  \"ffmpegPixelFormat\": \"bgr0\",\n"
        text += "  \"fps\": \(format(fps)),\n"
        text += "  \"command\": [" + command.map(jsonString).joined(separator: ", ") + "],\n"
        text += "  \"frames\": [\n"
        for (n, frame) in frames.enumerated() {
            text +=
                "    {\"index\": \(frame.index), \"file\": \(jsonString(frame.file)), \"time\": \(format(frame.time)), "
            text += "\"checksum\": \"\(Self.hex(frame.checksum))\""
            if let local = frame.local { text += ", \"local\": \(jsonString(local))" }
            if let shows = frame.shows { text += ", \"shows\": \(jsonString(shows))" }
            text += "}" + (n + 1 < frames.count ? ",\n" : "\n")
        }
        text += "  ]\n}\n"
        return text
    }

    /// Reads a manifest, checking every field it needs.
    public static func parse(bytes: [UInt8], name: String) throws(SceneFileError) -> DumpManifest {
        let root = try parseDocument(bytes, name: name)
        let document = JSONField(root: root)
        do throws(JSONFieldError) {
            _ = try document["format"].oneOf(["swell-dump/1"])
            let width = try document["width"].integer(in: 1...16384)
            let height = try document["height"].integer(in: 1...16384)
            let fps = try document["fps"].number(in: 0.001...1e6)
            var command: [String] = []
            for part in try document.optional("command")?.array() ?? [] { command.append(try part.string()) }
            var frames: [FrameEntry] = []
            for entry in try document["frames"].array() {
                let index = try entry["index"].integer(in: 0...Int(Int32.max))
                let file = try entry["file"].string()
                guard !file.contains("/"), !file.isEmpty else { throw entry.failure("file must be a plain name") }
                let time = try entry["time"].number()
                let sumText = try entry["checksum"].string()
                guard sumText.hasPrefix("fnv1a64:"), let sum = UInt64(sumText.dropFirst(8), radix: 16) else {
                    throw JSONFieldError(
                        path: entry.path + ".checksum", message: "expected \"fnv1a64:\" and 16 hex digits")
                }
                let local = try entry.optional("local")?.string()
                let shows = try entry.optional("shows")?.string()
                frames.append(
                    FrameEntry(index: index, file: file, time: time, checksum: sum, local: local, shows: shows))
            }
            return DumpManifest(width: width, height: height, fps: fps, command: command, frames: frames)
        } catch {
            throw SceneFileError(file: name, problems: [error.description])
        }
    }
}
