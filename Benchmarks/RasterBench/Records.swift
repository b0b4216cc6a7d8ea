/// What one measuring process found, one fact per line (tab-separated), so that runs of the
/// portable and tuned binaries — which cannot share a process — merge into one report.
enum Record {
    /// A draw list that was rendered.
    case list(name: String, width: Int, height: Int, ops: Int)
    /// Per-frame times of one renderer in one build's process.
    case timing(build: String, list: String, renderer: Renderer, frames: Int, medianMs: Double, p95Ms: Double)
    /// Swell's output checksum and whether every timed frame ended with the same picture.
    case checksum(build: String, list: String, hex: String, stable: Bool)
    /// Allocation calls seen while rendering `frames` frames (nil: the counter shim was not loaded).
    case allocations(build: String, list: String, calls: UInt64?, frames: Int)
    /// The allocation counter's self-test: calls seen for one deliberate allocation (nil: no shim).
    case allocationCanary(build: String, calls: UInt64?)
    /// How closely two renderers' pictures agree in one process (`compared`: "Cairo / Swell", ...).
    case agreement(build: String, list: String, compared: String, PixelAgreement)
    /// The glyph cache after a warm frame: masks, their bytes, the budget, and glyphs drawn.
    case textCache(build: String, list: String, masks: Int, bytes: Int, budget: Int, glyphs: Int, lines: LineMasks)

    var line: String {
        let fields: [String]
        switch self {
        case .list(let name, let width, let height, let ops):
            fields = ["list", name, String(width), String(height), String(ops)]
        case .timing(let build, let list, let renderer, let frames, let median, let p95):
            fields = ["timing", build, list, renderer.rawValue, String(frames), String(median), String(p95)]
        case .checksum(let build, let list, let hex, let stable):
            fields = ["checksum", build, list, hex, stable ? "stable" : "unstable"]
        case .allocations(let build, let list, let calls, let frames):
            fields = ["allocations", build, list, calls.map { String($0) } ?? "unchecked", String(frames)]
        case .allocationCanary(let build, let calls):
            fields = ["canary", build, calls.map { String($0) } ?? "unchecked"]
        case .agreement(let build, let list, let compared, let a):
            fields = [
                "agreement", build, list, compared, String(a.meanChannelDifference), String(a.maxChannelDifference),
                String(a.maxDifferenceAt.x), String(a.maxDifferenceAt.y), String(a.visiblyDifferentFraction),
            ]
        case .textCache(let build, let list, let masks, let bytes, let budget, let glyphs, let lines):
            fields = [
                "textcache", build, list, String(masks), String(bytes), String(budget), String(glyphs),
                String(lines.runs), String(lines.masks), String(lines.bytes),
            ]
        }
        return fields.joined(separator: "\t")
    }

    init?(line: Substring) {
        let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        switch (f.first, f.count) {
        case ("list", 5):
            guard let w = Int(f[2]), let h = Int(f[3]), let ops = Int(f[4]) else { return nil }
            self = .list(name: f[1], width: w, height: h, ops: ops)
        case ("timing", 7):
            guard let r = Renderer(rawValue: f[3]), let n = Int(f[4]), let m = Double(f[5]), let p = Double(f[6])
            else { return nil }
            self = .timing(build: f[1], list: f[2], renderer: r, frames: n, medianMs: m, p95Ms: p)
        case ("checksum", 5):
            self = .checksum(build: f[1], list: f[2], hex: f[3], stable: f[4] == "stable")
        case ("allocations", 5):
            guard let n = Int(f[4]) else { return nil }
            self = .allocations(build: f[1], list: f[2], calls: UInt64(f[3]), frames: n)
        case ("canary", 3):
            self = .allocationCanary(build: f[1], calls: UInt64(f[2]))
        case ("agreement", 9):
            guard let m = Double(f[4]), let x = Int(f[5]), let px = Int(f[6]), let py = Int(f[7]), let v = Double(f[8])
            else { return nil }
            let agreement = PixelAgreement(
                meanChannelDifference: m, maxChannelDifference: x, maxDifferenceAt: (px, py),
                visiblyDifferentFraction: v)
            self = .agreement(build: f[1], list: f[2], compared: f[3], agreement)
        case ("textcache", 10):
            guard let m = Int(f[3]), let b = Int(f[4]), let g = Int(f[5]), let n = Int(f[6]), let r = Int(f[7]),
                let lm = Int(f[8]), let lb = Int(f[9])
            else { return nil }
            self = .textCache(
                build: f[1], list: f[2], masks: m, bytes: b, budget: g, glyphs: n,
                lines: LineMasks(runs: r, masks: lm, bytes: lb))
        default: return nil
        }
    }
}

/// The renderers a process can time.
enum Renderer: String, CaseIterable {
    /// `render(_:into:)`: the plain pipeline, whole frame per command.
    case swell
    /// `FrameRenderer(threads: 1)`: the same commands in its default bands (what `swell render` uses).
    case swellBanded = "swell-banded"
    /// `FrameRenderer(threads: 1)` with damage: the list with a small disc added, then the list
    /// again, each drawing only the disc's rectangle (two frames per timed step).
    case swellDamage = "swell-damage"
    case cairo
    case memset
    /// Text lists only: a cold frame, every cache emptied first, untimed, with the fonts open
    /// (Swell: shaped lines and glyph masks dropped, then layout and `FrameRenderer(threads: 1)`;
    /// Cairo: fresh FT_Faces and font faces, then shaping and drawing).
    case swellCold = "swell-cold"
    case cairoCold = "cairo-cold"
    /// Text lists only: `swell-banded` with each text run laid out glyph by glyph instead of
    /// merged into line masks (`GlyphRun.mergingInk`): what the merge saves, in the same run.
    case swellGlyphs = "swell-glyphs"

    /// Renderers that only text lists have.
    var isTextOnly: Bool { self == .swellCold || self == .cairoCold || self == .swellGlyphs }
}

func parseRecords(_ text: String, source: String) throws(FileError) -> [Record] {
    var records: [Record] = []
    for (index, line) in text.split(separator: "\n").enumerated() where !line.isEmpty {
        guard let record = Record(line: line) else {
            throw FileError(description: "\(source):\(index + 1): not a RasterBench record: \(line)")
        }
        records.append(record)
    }
    return records
}

/// A list's text after merging: the runs merged into line masks, the masks every run composites
/// a frame (a merged run's line mask plus any glyph kept apart; a run not merged, its glyphs')
/// and the line masks' bytes.
struct LineMasks {
    var runs = 0
    var masks = 0
    var bytes = 0
}
